import type { AuthServices } from '../../auth-services.ts';
import type { FastifyRequest } from 'fastify';
import { findActiveClient } from '../../clients/registered-clients.ts';
import { introspectionResourceServers } from '../../config.ts';
import { boundKeyOf } from '@foodshare/server-kit/oauth-grants';
import { verifyAccessToken, type AccessTokenGrant } from '../../tokens/access-token.ts';
import { grantHolderRefusal } from '../../tokens/grant-holder-check.ts';
import { OAuthError } from '../../errors/oauth-errors.ts';
import { isCompactJwe } from '@foodshare/server-kit/oauth-grants';
import { loadTokenSubject } from '../../claims/user-claims.ts';
import type { IntrospectionResponse } from './introspection.schemas.ts';

/** RFC 7662 2.2: whatever the reason, the answer is this and nothing more. */
const INACTIVE: IntrospectionResponse = { active: false };

const numeric = (value: unknown) => (typeof value === 'number' ? value : undefined);

function isAudience(value: unknown): value is string | string[] {
  return (
    typeof value === 'string' ||
    (Array.isArray(value) && value.every((entry) => typeof entry === 'string'))
  );
}

/**
 * Active exactly when userinfo would accept the token (docs/oauth.md §5.1): signed by a key of
 * ours with our `iss`, typ at+jwt, unexpired, not on the deny list, issued after its client's
 * grants were last ended, and its user still active. The claims are the token's own.
 */
async function introspectAccessToken(
  services: AuthServices,
  request: FastifyRequest,
  token: string,
): Promise<IntrospectionResponse> {
  let grant: AccessTokenGrant;
  try {
    grant = await verifyAccessToken(services, token);
  } catch (error) {
    // Malformed, foreign, expired or revoked. Anything else (the store out of reach) is not an
    // answer about the token and goes on to become a 5xx.
    if (error instanceof OAuthError && error.error === 'invalid_token') return INACTIVE;
    throw error;
  }
  const subject = await loadTokenSubject(request.em, grant.userId);
  if (!subject?.active) return INACTIVE;
  const { claims } = grant;
  const nbf = numeric(claims.nbf);
  const jkt = boundKeyOf(claims);
  return {
    active: true,
    scope: grant.scopes.join(' '),
    client_id: grant.clientId,
    token_type: jkt === undefined ? 'Bearer' : 'DPoP',
    exp: numeric(claims.exp),
    iat: numeric(claims.iat),
    ...(nbf === undefined ? {} : { nbf }),
    sub: String(grant.userId),
    ...(isAudience(claims.aud) ? { aud: claims.aud } : {}),
    iss: services.issuer,
    jti: grant.jti,
    ...(jkt === undefined ? {} : { cnf: { jkt } }),
  };
}

/**
 * Active exactly when the token endpoint would take it for a refresh:
 * - it opens (ours, not expired);
 * - its family stands (not revoked, not older than its client's grant cutoff);
 * - it is the family's current generation (not rotated away);
 * - its client is active, and the user may still hold the grant.
 * Unlike a refresh, a grant that no longer holds is only reported, not revoked: a read changes
 * nothing. The scope is what a refresh would give: the grant's scopes that the client is still
 * registered for. There is no `token_type`. RFC 7662 2.2 takes its values from RFC 6749 7.1,
 * which names types of access tokens only.
 */
async function introspectRefreshToken(
  services: AuthServices,
  request: FastifyRequest,
  token: string,
): Promise<IntrospectionResponse> {
  const { families, refreshTokens } = services;
  const claims = await refreshTokens.open(token);
  if (!claims) return INACTIVE;
  const family = await families.find(claims.familyId, claims.clientId);
  if (!family || family.clientId !== claims.clientId) return INACTIVE;
  if (!(await families.isRefreshTokenLive(family.id, claims.jti))) return INACTIVE;
  const client = await findActiveClient(request.em, family.clientId);
  if (!client) return INACTIVE;
  if ((await grantHolderRefusal(request.em, family, client)) !== null) return INACTIVE;
  const scopes = family.scopes.filter((scope) => client.scopes.includes(scope));
  if (scopes.length === 0) return INACTIVE;
  return {
    active: true,
    scope: scopes.join(' '),
    client_id: family.clientId,
    exp: claims.expiresAt,
    sub: String(family.userId),
    iss: services.issuer,
    ...(family.jkt === undefined ? {} : { cnf: { jkt: family.jkt } }),
  };
}

/**
 * Whether the caller may learn of an active token: its own (issued to it), one naming it as
 * audience, or any when the operator made it a resource server (INTROSPECTION_RESOURCE_SERVERS).
 * Otherwise any confidential client could read another client's tokens: whose they are
 * (`sub`), what they allow and to whom they were issued.
 */
function callerMaySee(
  answer: IntrospectionResponse,
  callerId: string,
  resourceServers: readonly string[],
): boolean {
  if (answer.client_id === callerId || resourceServers.includes(callerId)) return true;
  const { aud } = answer;
  return aud === callerId || (Array.isArray(aud) && aud.includes(callerId));
}

/**
 * RFC 7662 2.2 for a token this server issued, asked by the confidential client `callerId`
 * (RFC 7662 4: the server decides what each caller may learn). The token's form tells its kind,
 * so `token_type_hint` is not needed. A token the caller may not see is `active: false`, the
 * answer for an unknown one, so it learns nothing of it.
 */
export async function introspectToken(
  services: AuthServices,
  request: FastifyRequest,
  token: string,
  callerId: string,
): Promise<IntrospectionResponse> {
  const answer = isCompactJwe(token)
    ? await introspectRefreshToken(services, request, token)
    : await introspectAccessToken(services, request, token);
  if (!answer.active) return answer;
  return callerMaySee(answer, callerId, introspectionResourceServers(services.config))
    ? answer
    : INACTIVE;
}

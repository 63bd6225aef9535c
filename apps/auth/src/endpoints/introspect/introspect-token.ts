import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findActiveClient } from '../../clients/registered-clients.ts';
import { verifyAccessToken, type AccessTokenGrant } from '../../oauth/access-token.ts';
import { whyGrantNoLongerHolds } from '../../oauth/grant-standing.ts';
import { OAuthError } from '../../oauth/oauth-errors.ts';
import { isCompactJwe } from '../../oauth/refresh-token-codec.ts';
import { loadTokenSubject } from '../../oauth/token-subject.ts';
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
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
): Promise<IntrospectionResponse> {
  let grant: AccessTokenGrant;
  try {
    grant = await verifyAccessToken(app, token);
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
  return {
    active: true,
    scope: grant.scopes.join(' '),
    client_id: grant.clientId,
    token_type: 'Bearer',
    exp: numeric(claims.exp),
    iat: numeric(claims.iat),
    ...(nbf === undefined ? {} : { nbf }),
    sub: String(grant.userId),
    ...(isAudience(claims.aud) ? { aud: claims.aud } : {}),
    iss: app.oauth.issuer,
    jti: grant.jti,
  };
}

/**
 * Active exactly when the token endpoint would take it for a refresh: it opens (ours, not
 * expired), its family stands (not revoked, not older than its client's grant cutoff), it is the
 * family's current generation (not rotated away), its client is active, and the user may still
 * hold the grant. Unlike a refresh, a grant that no longer holds is only reported, not revoked:
 * a read changes nothing. The scope is what a refresh would give, the grant's scopes the client
 * is still registered for. No `token_type`: RFC 7662 2.2 takes its values from RFC 6749 7.1,
 * which names types of access tokens only.
 */
async function introspectRefreshToken(
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
): Promise<IntrospectionResponse> {
  const { families, refreshTokens } = app.tokenState;
  const claims = await refreshTokens.open(token);
  if (!claims) return INACTIVE;
  const family = await families.find(claims.familyId, claims.clientId);
  if (!family || family.clientId !== claims.clientId) return INACTIVE;
  if (!(await families.isRefreshTokenLive(family.id, claims.jti))) return INACTIVE;
  const client = await findActiveClient(request.em, family.clientId);
  if (!client) return INACTIVE;
  if ((await whyGrantNoLongerHolds(request.em, family, client)) !== null) return INACTIVE;
  const scopes = family.scopes.filter((scope) => client.scopes.includes(scope));
  if (scopes.length === 0) return INACTIVE;
  return {
    active: true,
    scope: scopes.join(' '),
    client_id: family.clientId,
    exp: claims.expiresAt,
    sub: String(family.userId),
    iss: app.oauth.issuer,
  };
}

/**
 * RFC 7662 2.2 for any token this server issued, to any client: a resource server introspects
 * the tokens that other clients (the apps calling it) present (RFC 7662 4). The token's form tells
 * its kind, so `token_type_hint` is not needed.
 */
export function introspectToken(
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
): Promise<IntrospectionResponse> {
  return isCompactJwe(token)
    ? introspectRefreshToken(app, request, token)
    : introspectAccessToken(app, request, token);
}

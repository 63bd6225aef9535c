import type { AuthServices } from '../../auth-services.ts';
import type { FastifyRequest } from 'fastify';
import { InvalidTokenError } from '../../keys/key-ring.ts';
import type { AuthenticatedClient } from '../../clients/client-authentication.ts';
import { isCompactJwe } from '@foodshare/server-kit/oauth-grants';

async function revokeRefreshToken(
  services: AuthServices,
  request: FastifyRequest,
  client: AuthenticatedClient,
  token: string,
): Promise<void> {
  const claims = await services.refreshTokens.open(token);
  // RFC 7009 2.1: a token of another client is not revoked (and the answer does not tell).
  if (!claims || claims.clientId !== client.clientId) return;
  await services.families.revoke(claims.familyId);
  services.audit(request, 'tokens_revoked', {
    clientId: client.clientId,
    familyId: claims.familyId,
    tokenType: 'refresh_token',
  });
}

async function revokeAccessToken(
  services: AuthServices,
  request: FastifyRequest,
  client: AuthenticatedClient,
  token: string,
): Promise<void> {
  let claims: Record<string, unknown>;
  try {
    claims = await services.keys.verifyJwt(token, { typ: 'at+jwt' });
  } catch (error) {
    // Invalid or expired: nothing left to revoke.
    if (error instanceof InvalidTokenError) return;
    throw error;
  }
  const { jti, exp, client_id: clientId } = claims;
  if (clientId !== client.clientId || typeof jti !== 'string' || typeof exp !== 'number') return;
  await services.denyList.deny(jti, exp * 1000);
  services.audit(request, 'tokens_revoked', {
    clientId: client.clientId,
    jti,
    tokenType: 'access_token',
  });
}

/**
 * RFC 7009 2.1: a refresh token takes its whole family (every refresh and access token of the
 * grant) with it; an access token goes on the deny list. The token's form tells which it is, so
 * `token_type_hint` is not needed (2.1 allows ignoring it). Unknown tokens change nothing.
 */
export async function revokeToken(
  services: AuthServices,
  request: FastifyRequest,
  client: AuthenticatedClient,
  token: string,
): Promise<void> {
  if (isCompactJwe(token)) await revokeRefreshToken(services, request, client, token);
  else await revokeAccessToken(services, request, client, token);
}

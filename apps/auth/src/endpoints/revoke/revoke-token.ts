import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidTokenError } from '../../auth-services.ts';
import type { AuthenticatedClient } from '../../clients/client-authentication.ts';
import { isCompactJwe } from '../../tokens/refresh-token-codec.ts';

async function revokeRefreshToken(
  app: FastifyInstance,
  request: FastifyRequest,
  client: AuthenticatedClient,
  token: string,
): Promise<void> {
  const claims = await app.tokenState.refreshTokens.open(token);
  // RFC 7009 2.1: a token of another client is not revoked (and the answer does not tell).
  if (!claims || claims.clientId !== client.clientId) return;
  await app.tokenState.families.revoke(claims.familyId);
  app.oauth.audit(request, 'tokens_revoked', {
    clientId: client.clientId,
    familyId: claims.familyId,
    tokenType: 'refresh_token',
  });
}

async function revokeAccessToken(
  app: FastifyInstance,
  request: FastifyRequest,
  client: AuthenticatedClient,
  token: string,
): Promise<void> {
  let claims: Record<string, unknown>;
  try {
    claims = await app.oauth.keys.verifyJwt(token, { typ: 'at+jwt' });
  } catch (error) {
    // Invalid or expired: nothing left to revoke.
    if (error instanceof InvalidTokenError) return;
    throw error;
  }
  const { jti, exp, client_id: clientId } = claims;
  if (clientId !== client.clientId || typeof jti !== 'string' || typeof exp !== 'number') return;
  await app.tokenState.denyList.deny(jti, exp * 1000);
  app.oauth.audit(request, 'tokens_revoked', {
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
  app: FastifyInstance,
  request: FastifyRequest,
  client: AuthenticatedClient,
  token: string,
): Promise<void> {
  if (isCompactJwe(token)) await revokeRefreshToken(app, request, client, token);
  else await revokeAccessToken(app, request, client, token);
}

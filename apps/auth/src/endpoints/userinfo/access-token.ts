import type { FastifyInstance } from 'fastify';
import { InvalidTokenError } from '../../plugins/oauth-core.ts';
import { bearerTokenMissing, invalidToken } from '../../oauth-errors.ts';

/** The parts of a verified access token a resource needs. */
export interface AccessTokenGrant {
  userId: number;
  clientId: string;
  scopes: string[];
  jti: string;
}

// RFC 6750 2.1: b64token after the scheme; the scheme name is case-insensitive.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * RFC 6750 2.1: the token from the Authorization header only. The query form (2.3) would leak it
 * into logs and Referer headers, and the form-body form (2.2) is not offered either: a token
 * there is ignored, and the request counts as one without a token.
 */
export function bearerToken(authorization: string | undefined): string {
  if (authorization === undefined || !/^Bearer\b/i.test(authorization)) {
    throw bearerTokenMissing();
  }
  const token = BEARER.exec(authorization)?.[1];
  if (!token) throw invalidToken('Malformed Authorization header');
  return token;
}

/**
 * An access token this server issued (RS256, typ at+jwt, RFC 9068), unexpired and not revoked.
 * Anything else is `invalid_token`.
 */
export async function verifyAccessToken(
  app: FastifyInstance,
  token: string,
): Promise<AccessTokenGrant> {
  let claims: Record<string, unknown>;
  try {
    claims = await app.oauth.keys.verifyJwt(token, { typ: 'at+jwt' });
  } catch (error) {
    if (error instanceof InvalidTokenError) throw invalidToken(error.message);
    throw error;
  }
  const { sub, client_id: clientId, scope, jti } = claims;
  if (
    typeof sub !== 'string' ||
    !/^[1-9][0-9]{0,9}$/.test(sub) ||
    typeof clientId !== 'string' ||
    typeof scope !== 'string' ||
    typeof jti !== 'string'
  ) {
    throw invalidToken('The token lacks the claims of an access token');
  }
  if (await app.tokenState.isAccessTokenRevoked(jti)) throw invalidToken('The token was revoked');
  return { userId: Number(sub), clientId, scopes: scope.split(' '), jti };
}

import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { newTokenId, type RefreshFamily } from '../../stores/refresh-families.store.ts';

/** RFC 6749 5.1 successful response, with OIDC Core 3.1.3.3's id_token. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  id_token?: string;
  scope: string;
}

/** An access token named before it is signed, so a code redemption can record it first. */
export interface PlannedAccessToken {
  jti: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export function planAccessToken(app: FastifyInstance, now = Date.now()): PlannedAccessToken {
  return { jti: newTokenId(), expiresAt: now + app.oauth.config.ACCESS_TOKEN_TTL_SECONDS * 1000 };
}

/** OIDC Core 3.1.3.6: base64url of the left half of the SHA-256 of the access token (RS256). */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256')
    .update(accessToken, 'ascii')
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

const seconds = (ms: number) => Math.floor(ms / 1000);

export interface IssueTokensInput {
  family: RefreshFamily;
  /** The scopes of this access token: the family's, or fewer at a narrowing refresh. */
  scopes: string[];
  accessToken: PlannedAccessToken;
  /** From the authorization request; absent from refreshed ID tokens (OIDC Core 12.2). */
  nonce: string | null;
  /** Whether to hand out a refresh token: only to clients registered for the refresh grant. */
  withRefreshToken: boolean;
}

/**
 * Signs the access token (RFC 9068 JWT) and the ID token, and seals the family's next refresh
 * token. The access token is recorded with its family last: recording checks the family's
 * tombstone after every other write here, so a revocation that ran meanwhile (a second use of
 * the code, the user's connected-apps page) denies the access token either way, and the family
 * is revoked again, so that nothing written here after that revocation (the refresh token's
 * entry in the user's grant index) stays behind.
 */
export async function issueTokens(
  app: FastifyInstance,
  input: IssueTokensInput,
): Promise<TokenResponse> {
  const { keys, config } = app.oauth;
  const { families, refreshTokens } = app.tokenState;
  const { family, scopes, accessToken } = input;
  const issuedAt = seconds(Date.now());
  const subject = String(family.userId);
  const scope = scopes.join(' ');

  const access = await keys.signJwt(
    {
      sub: subject,
      aud: family.clientId,
      client_id: family.clientId,
      scope,
      jti: accessToken.jti,
      iat: issuedAt,
      exp: seconds(accessToken.expiresAt),
    },
    { typ: 'at+jwt' },
  );

  const response: TokenResponse = {
    access_token: access,
    token_type: 'Bearer',
    expires_in: config.ACCESS_TOKEN_TTL_SECONDS,
    scope,
  };
  if (scopes.includes('openid')) {
    response.id_token = await keys.signJwt({
      sub: subject,
      aud: family.clientId,
      azp: family.clientId,
      iat: issuedAt,
      exp: issuedAt + config.ACCESS_TOKEN_TTL_SECONDS,
      auth_time: family.authTime,
      ...(input.nonce === null ? {} : { nonce: input.nonce }),
      at_hash: accessTokenHash(access),
    });
  }
  if (input.withRefreshToken) {
    const { jti, expiresAt } = await families.issueRefreshToken(family);
    response.refresh_token = await refreshTokens.seal({
      familyId: family.id,
      jti,
      clientId: family.clientId,
      expiresAt: seconds(expiresAt),
    });
  }
  // Last, and one round trip for the tombstone that every issue needs anyway (see above).
  if (!(await families.recordAccessToken(family.id, accessToken.jti, accessToken.expiresAt))) {
    await families.revoke(family.id, family);
  }
  return response;
}

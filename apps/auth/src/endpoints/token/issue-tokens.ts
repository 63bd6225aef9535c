import { hash } from 'node:crypto';
import { apiAudienceOf } from '@foodshare/server-kit';
import type { TokenServices } from './grants/grant.ts';
import { userClaims, type UserClaimsRow } from '../../claims/user-claims.ts';
import {
  type IssuedToken,
  newTokenId,
  type RefreshFamily,
  type RefreshFamilyStore,
} from '@foodshare/server-kit/oauth-grants';

/** RFC 6749 5.1 successful response, with OIDC Core 3.1.3.3's id_token. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  refresh_token?: string;
  id_token?: string;
  scope: string;
}

/** An access token named before it is signed, so a code redemption can record it first. */
export type PlannedAccessToken = IssuedToken;

export function planAccessToken(
  { config }: Pick<TokenServices, 'config'>,
  now = Date.now(),
): PlannedAccessToken {
  return { jti: newTokenId(), expiresAt: now + config.ACCESS_TOKEN_TTL_SECONDS * 1000 };
}

/** OIDC Core 3.1.3.6: base64url of the left half of the SHA-256 of the access token (RS256). */
export function accessTokenHash(accessToken: string): string {
  return hash('sha256', accessToken, 'buffer').subarray(0, 16).toString('base64url');
}

const seconds = (ms: number) => Math.floor(ms / 1000);

export interface IssueTokensInput {
  family: RefreshFamily;
  /** The family begins with this response (a code exchange): its record is stored with it. */
  begins: boolean;
  /** The scopes of this access token: the family's, or fewer at a narrowing refresh. */
  scopes: string[];
  accessToken: PlannedAccessToken;
  /** From the authorization request; absent from refreshed ID tokens (OIDC Core 12.2). */
  nonce: string | null;
  /** Whether to hand out a refresh token: only to clients registered for the refresh grant. */
  withRefreshToken: boolean;
  /** The user as the grant read them just before (loadTokenSubject), for the tokens' claims. */
  user: UserClaimsRow;
  /** The thumbprint of the request's DPoP key: the access token is bound to it (RFC 9449 6). */
  dpopJkt?: string | null;
}

/** A token response signed and sealed, and what storing it writes (`storeTokens`). */
export interface SignedTokens {
  response: TokenResponse;
  record: Parameters<RefreshFamilyStore['recordIssue']>[0];
}

/**
 * Signs the access token (RFC 9068 JWT) and the ID token, and seals the family's next refresh
 * token: everything but the store, so that storing takes one round trip (`storeTokens`).
 */
export async function signTokens(
  services: TokenServices,
  input: IssueTokensInput,
): Promise<SignedTokens> {
  const { keys, config, families, refreshTokens, issuer } = services;
  const { family, scopes, accessToken } = input;
  const dpopJkt = input.dpopJkt ?? null;
  // The moment the access token was planned: `exp - iat` is the lifetime exactly, even when a
  // second turns between planning and signing.
  const issuedAt = seconds(accessToken.expiresAt) - config.ACCESS_TOKEN_TTL_SECONDS;
  const subject = String(family.userId);
  const scope = scopes.join(' ');
  // The claims of userinfo for the same scopes, made by the same rules (docs/oauth.md §4.2).
  const claims = userClaims(input.user, scopes, issuer);

  const access = await keys.signJwt(
    {
      sub: subject,
      // docs/oauth.md §11: a token for the REST API names the API as its audience, beside the
      // client, as before, for userinfo and the relying parties that read it.
      aud: scopes.includes('api') ? [family.clientId, apiAudienceOf(config)] : family.clientId,
      client_id: family.clientId,
      scope,
      // docs/oauth.md §5.4: for relying parties that read groups from the access token.
      ...(claims.groups === undefined ? {} : { groups: claims.groups }),
      jti: accessToken.jti,
      iat: issuedAt,
      exp: seconds(accessToken.expiresAt),
      ...(dpopJkt === null ? {} : { cnf: { jkt: dpopJkt } }),
    },
    { typ: 'at+jwt' },
  );

  const response: TokenResponse = {
    access_token: access,
    token_type: dpopJkt === null ? 'Bearer' : 'DPoP',
    expires_in: config.ACCESS_TOKEN_TTL_SECONDS,
    scope,
  };
  if (scopes.includes('openid')) {
    response.id_token = await keys.signJwt({
      ...claims,
      sub: subject,
      aud: family.clientId,
      azp: family.clientId,
      iat: issuedAt,
      exp: issuedAt + config.ACCESS_TOKEN_TTL_SECONDS,
      auth_time: family.authTime,
      ...(input.nonce === null ? {} : { nonce: input.nonce }),
      at_hash: accessTokenHash(access),
      // docs/oauth.md §4.4: the login session, the same in every ID token of the family.
      ...(family.sid === undefined ? {} : { sid: family.sid }),
    });
  }
  const refreshToken = input.withRefreshToken ? families.planRefreshToken() : null;
  if (refreshToken) {
    response.refresh_token = await refreshTokens.seal({
      familyId: family.id,
      jti: refreshToken.jti,
      clientId: family.clientId,
      expiresAt: seconds(refreshToken.expiresAt),
    });
  }
  return { response, record: { family, begins: input.begins, refreshToken, accessToken } };
}

/**
 * Stores signed tokens with their family (`RefreshFamilyStore.recordIssue`), the access token
 * last. Recording checks the family's tombstone after every other write. A revocation that ran
 * meanwhile (a second use of the code, the user's connected-apps page) therefore denies the
 * access token either way. The family is then revoked again, so that nothing written here after
 * that revocation stays behind (the refresh token's entry in the user's grant index).
 * Every command is sent before the first await: a read sent right after this call runs after
 * them.
 */
export async function storeTokens(
  { families }: Pick<TokenServices, 'families'>,
  signed: SignedTokens,
): Promise<TokenResponse> {
  const { family } = signed.record;
  if (!(await families.recordIssue(signed.record))) await families.revoke(family.id, family);
  return signed.response;
}

/** Signs and stores a token response (`signTokens`, `storeTokens`). */
export async function issueTokens(
  services: TokenServices,
  input: IssueTokensInput,
): Promise<TokenResponse> {
  return storeTokens(services, await signTokens(services, input));
}

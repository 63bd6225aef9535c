import { loadTokenSubject, type TokenSubject } from '../../../claims/user-claims.ts';
import { mayHoldScope } from '../../../clients/registered-clients.ts';
import { invalidGrant } from '../../../errors/oauth-errors.ts';
import {
  planAccessToken,
  signTokens,
  storeTokens,
  type PlannedAccessToken,
  type TokenResponse,
} from '../issue-tokens.ts';
import type { GrantRequest, TokenServices } from './grant.ts';

/** What the user granted, as a code or an approved device authorization (RFC 8628) holds it. */
export interface GrantedAccess {
  userId: number;
  /** The consented scopes: the family's. */
  scopes: string[];
  /** Seconds since the epoch (OIDC auth_time). */
  authTime: number;
  /** When the code was issued or the device approved (ms): a revocation after it voids it. */
  issuedAt: number;
  sid?: string;
}

/**
 * The consented scopes the client is still registered for (an administrator may have taken one
 * from the client since the access was granted), and the user, who must still be active.
 */
export async function loadGrantSubject(
  { request, client }: GrantRequest,
  access: Pick<GrantedAccess, 'userId' | 'scopes'>,
): Promise<{ scopes: string[]; subject: TokenSubject }> {
  const scopes = access.scopes.filter((scope) => mayHoldScope(client, scope));
  if (scopes.length === 0) {
    throw invalidGrant('The client is no longer registered for the granted scopes');
  }
  const subject = await loadTokenSubject(request.em, access.userId, scopes);
  if (!subject?.active) throw invalidGrant('The user account is not active');
  return { scopes, subject };
}

/**
 * Why no family was begun: the user revoked the app, or ended every grant, after the access was
 * granted (`voided`), or another request redeemed the code first (`redeemed-before`). The family
 * is revoked again in both cases; its tokens never left the process.
 */
export type NotBegun = 'voided' | 'redeemed-before';

/**
 * The first tokens of a new family, for a grant that begins one (a code exchange, a device's
 * redemption): the family, its access token (`accessToken`, named before when a redemption
 * recorded it), ID token and refresh token, the family bound to the DPoP key of a public
 * client's proof (RFC 9449 5).
 */
export async function beginFamily(
  services: TokenServices,
  { request, client, dpopJkt }: GrantRequest,
  access: GrantedAccess,
  issue: {
    familyId: string;
    /** The scopes of the first access token: the granted ones the client still holds. */
    scopes: string[];
    subject: TokenSubject;
    nonce: string | null;
    accessToken?: PlannedAccessToken;
    /**
     * Redeems the code the family begins from, atomically (true for the one request that wins).
     * Sent first in the round trip that stores the family, so the exchange needs no round trip
     * of its own for it; the family counts only if it wins.
     */
    redeem?: () => Promise<boolean>;
  },
): Promise<TokenResponse | NotBegun> {
  const { families, codes, audit } = services;
  const family = families.begin({
    id: issue.familyId,
    userId: access.userId,
    clientId: client.clientId,
    scopes: access.scopes,
    authTime: access.authTime,
    databaseCreatedAt: issue.subject.databaseNow,
    codeIssuedAt: access.issuedAt,
    ...(access.sid === undefined ? {} : { sid: access.sid }),
    // RFC 9449 5: a public client's refresh tokens are bound to its DPoP key.
    ...(dpopJkt !== null && !client.confidential ? { jkt: dpopJkt } : {}),
  });
  const signed = await signTokens(services, {
    family,
    begins: true,
    scopes: issue.scopes,
    accessToken: issue.accessToken ?? planAccessToken(services),
    nonce: issue.nonce,
    withRefreshToken: client.grantTypes.includes('refresh_token'),
    user: issue.subject.claims,
    dpopJkt,
  });
  // The user revoked the app after the access was granted: whether the revocation came before
  // this exchange or while it ran, the grant is void. Read after the family joined the user's
  // grant index, in the same round trip (storeTokens sends its writes first): a revocation
  // that listed the index before that has set this mark before too.
  const [redeemed, tokens, voided] = await Promise.all([
    issue.redeem?.() ?? true,
    storeTokens(services, signed),
    codes.wasVoided({
      userId: access.userId,
      clientId: client.clientId,
      issuedAt: access.issuedAt,
    }),
  ]);
  if (!redeemed || voided) {
    await families.revoke(issue.familyId, family);
    return redeemed ? 'voided' : 'redeemed-before';
  }
  audit(request, 'tokens_issued', {
    clientId: client.clientId,
    userId: access.userId,
    familyId: issue.familyId,
    scope: tokens.scope,
  });
  return tokens;
}

import { hash, timingSafeEqual } from 'node:crypto';
import { type AuthorizationCodeGrant, newTokenId } from '@foodshare/server-kit/oauth-grants';
import { invalidGrant } from '../../../errors/oauth-errors.ts';
import type { AuthenticatedClient } from '../../../clients/client-authentication.ts';
import { planAccessToken } from '../issue-tokens.ts';
import { beginFamily, loadGrantSubject } from './begin-family.ts';
import type { Grant, GrantRequest, TokenServices } from './grant.ts';

/** The message of docs/spec.md §7.2 for a used or expired code. */
export const INVALID_OR_EXPIRED_CODE = 'Invalid or expired code';
/** The message of docs/spec.md §7.2 when a public client skips PKCE. */
export const CODE_CHALLENGE_REQUIRED = 'Code challenge required';

// RFC 7636 4.1: 43 to 128 unreserved characters.
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

function s256(verifier: string): Buffer {
  return Buffer.from(hash('sha256', verifier, 'base64url'));
}

/**
 * RFC 7636 4.6 with docs/design.md §4.1: a code with a challenge needs the matching S256 verifier;
 * a public client always needs one; a verifier for a code without challenge is refused, since it
 * means the challenge was stripped on the way (a downgrade, RFC 9700 2.1.1).
 */
function verifyPkce(
  grant: AuthorizationCodeGrant,
  verifier: string | undefined,
  client: AuthenticatedClient,
): void {
  if (grant.codeChallenge === null) {
    if (verifier !== undefined) {
      throw invalidGrant('code_verifier sent for a code issued without code_challenge');
    }
    if (!client.confidential) throw invalidGrant(CODE_CHALLENGE_REQUIRED);
    return;
  }
  if (verifier === undefined || verifier === '') throw invalidGrant(CODE_CHALLENGE_REQUIRED);
  if (!CODE_VERIFIER.test(verifier)) throw invalidGrant('Malformed code_verifier');
  const expected = Buffer.from(grant.codeChallenge);
  const actual = s256(verifier);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    throw invalidGrant('code_verifier does not match the code_challenge');
  }
}

/**
 * A second use of a code: revoke what the first one produced (RFC 6749 4.1.2, 10.5). The
 * redemption marker names the family and the access token even before they were issued.
 */
async function revokeWhatTheCodeIssued(
  services: TokenServices,
  { request, client }: GrantRequest,
  code: string,
): Promise<void> {
  const redemption = await services.codes.findRedemption(code);
  if (!redemption) return;
  await services.denyList.deny(redemption.accessTokenJti, redemption.accessTokenExpiresAt);
  await services.families.revoke(redemption.familyId);
  services.audit(request, 'code_reused', {
    clientId: client.clientId,
    familyId: redemption.familyId,
  });
}

/** RFC 6749 4.1.3: exchanges an authorization code for tokens, once. */
export const authorizationCodeGrant: Grant<'code' | 'redirect_uri', AuthorizationCodeGrant | null> =
  {
    grantType: 'authorization_code',
    requiredParams: ['code', 'redirect_uri'],

    readAhead: ({ codes }, { code }, clientId) => codes.find(code, clientId),

    async handle(services, grantRequest) {
      const { request, client, params } = grantRequest;
      const { code, redirect_uri: redirectUri } = params;
      const { codes, audit } = services;

      const grant = await (grantRequest.ahead ?? codes.find(code, client.clientId));
      if (!grant) {
        await revokeWhatTheCodeIssued(services, grantRequest, code);
        throw invalidGrant(INVALID_OR_EXPIRED_CODE);
      }
      if (grant.clientId !== client.clientId)
        throw invalidGrant('The code was issued to another client');
      if (codes.isExpired(grant)) throw invalidGrant(INVALID_OR_EXPIRED_CODE);
      // RFC 6749 4.1.3: identical to the redirect_uri of the authorization request.
      if (redirectUri !== grant.redirectUri) {
        throw invalidGrant('redirect_uri differs from the authorization request');
      }
      verifyPkce(grant, params.code_verifier, client);
      // RFC 9449 10: a code bound by dpop_jkt is redeemed only with a proof of that key.
      if (grant.dpopJkt !== undefined && grant.dpopJkt !== grantRequest.dpopJkt) {
        throw invalidGrant('The code is bound to another DPoP key');
      }
      const { scopes, subject } = await loadGrantSubject(grantRequest, grant);

      const familyId = newTokenId();
      const accessToken = planAccessToken(services);
      const tokens = await beginFamily(services, grantRequest, grant, {
        familyId,
        scopes,
        subject,
        nonce: grant.nonce,
        accessToken,
        redeem: async () => {
          const won = await codes.redeem(code, {
            familyId,
            accessTokenJti: accessToken.jti,
            accessTokenExpiresAt: accessToken.expiresAt,
          });
          if (won)
            audit(request, 'code_redeemed', { clientId: client.clientId, userId: grant.userId });
          return won;
        },
      });
      if (tokens === 'redeemed-before') {
        await revokeWhatTheCodeIssued(services, grantRequest, code);
        throw invalidGrant(INVALID_OR_EXPIRED_CODE);
      }
      // A code the user voided (revoked the app) after it was issued yields nothing.
      if (tokens === 'voided') throw invalidGrant(INVALID_OR_EXPIRED_CODE);
      // A second use of the code that ran while this family was being stored has revoked it by id:
      // its tombstone stands and the access token is denied, so the tokens are dead in any order.
      // storeTokens() may have written the family's record and its entry in the user's grant
      // index after that revocation: it revokes the family again then, from the tombstone check
      // it makes last anyway (no read of its own here).
      return tokens;
    },
  };

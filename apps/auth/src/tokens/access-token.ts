import type { AuthServices } from '../auth-services.ts';
import { InvalidTokenError } from '../keys/key-ring.ts';
import { bearerTokenMissing, invalidToken, OAuthError } from '../errors/oauth-errors.ts';
import {
  type AccessTokenClaims,
  accessTokenClaimsOf,
  boundKeyOf,
  invalidDpopProofFailure,
  parsePresentedAccessToken,
  type PresentedAccessToken,
  presentsAccessToken,
} from '@foodshare/server-kit/oauth-grants';

/** The parts of a verified access token a resource needs. */
export interface AccessTokenGrant extends AccessTokenClaims {
  /** Every claim of the verified token, for introspection (RFC 7662 2.2) to repeat. */
  claims: Record<string, unknown>;
}

/**
 * RFC 6750 2.1 and RFC 9449 7.1: the token from the Authorization header only. The query form
 * (RFC 6750 2.3) would leak it into logs and Referer headers, and the form-body form (2.2) is
 * not offered either: a token there is ignored, and the request counts as one without a token.
 */
export function presentedAccessToken(authorization: string | undefined): PresentedAccessToken {
  if (!presentsAccessToken(authorization)) throw bearerTokenMissing();
  const presented = parsePresentedAccessToken(authorization);
  if (!presented) throw invalidToken('Malformed Authorization header');
  return presented;
}

/** RFC 9449 7.1: a resource's 401 with the `DPoP` challenge. */
const invalidDpopProof = (description: string) =>
  new OAuthError(invalidDpopProofFailure(description, 401));

/**
 * RFC 9449 7: a token bound to a key (`cnf.jkt`) needs the DPoP scheme and a proof of that key
 * for this request, with the token's hash (`ath`). A bound token sent as a bearer token is
 * refused, so a stolen token is useless without the key. An unbound token sent with the DPoP
 * scheme is refused too.
 */
export async function assertProofOfPossession(
  { dpop }: Pick<AuthServices, 'dpop'>,
  presented: PresentedAccessToken,
  grant: AccessTokenGrant,
  request: { method: string; url: string; proof: string | string[] | undefined },
): Promise<void> {
  const boundTo = boundKeyOf(grant.claims);
  if (presented.scheme === 'Bearer') {
    if (boundTo !== undefined) {
      throw invalidToken('The token is bound to a DPoP key: send a DPoP proof');
    }
    return;
  }
  if (boundTo === undefined) throw invalidToken('The token is not bound to a DPoP key');
  if (request.proof === undefined) throw invalidDpopProof('A DPoP proof is required');
  const proof = await dpop.check(
    request.proof,
    { method: request.method, url: request.url, accessToken: presented.token, requireNonce: false },
    401,
  );
  if (proof?.jkt !== boundTo) throw invalidDpopProof('The proof is signed by another key');
  await dpop.consume(proof, 401);
}

/**
 * An access token this server issued (RS256, typ at+jwt, RFC 9068), unexpired, not revoked, and
 * issued after its client's grants were last ended. Anything else is `invalid_token`.
 */
export async function verifyAccessToken(
  services: AuthServices,
  token: string,
): Promise<AccessTokenGrant> {
  const grant = await verifySignedAccessToken(services, token);
  await assertAccessTokenLive(services, grant);
  return grant;
}

/**
 * The first half of `verifyAccessToken`: signature, type, lifetime and claims, without the
 * revocation state. Only for a caller that starts other work (a resource read) before it awaits
 * `assertAccessTokenLive`, and answers nothing of that work until the token proved live.
 */
export async function verifySignedAccessToken(
  services: AuthServices,
  token: string,
): Promise<AccessTokenGrant> {
  let claims: Record<string, unknown>;
  try {
    claims = await services.keys.verifyJwt(token, { typ: 'at+jwt' });
  } catch (error) {
    if (error instanceof InvalidTokenError) throw invalidToken(error.message);
    throw error;
  }
  const grant = accessTokenClaimsOf(claims);
  if (!grant) throw invalidToken('The token lacks the claims of an access token');
  return { ...grant, claims };
}

/** The second half of `verifyAccessToken`: not revoked, its client's grants not ended since. */
export async function assertAccessTokenLive(
  services: AuthServices,
  grant: AccessTokenGrant,
): Promise<void> {
  const { jti, clientId, issuedAt } = grant;
  // One key-value round trip: the deny list and the client's grant cutoff (a token of a client
  // deactivated or deleted since, or of an earlier holder of its client_id, is void).
  const state = await services.denyList.stateOf({ jti, clientId, iat: issuedAt });
  if (state === 'revoked') throw invalidToken('The token was revoked');
  if (state === 'client_grants_ended') {
    throw invalidToken('The client of this token was deactivated or deleted since');
  }
}

/** An access token as the Authorization header presented it. */
export interface PresentedAccessToken {
  /** `DPoP` for a token presented with a proof of its key (RFC 9449 7.1). */
  scheme: 'Bearer' | 'DPoP';
  token: string;
}

// Scheme names are case-insensitive (RFC 9110 11.1).
const TOKEN_SCHEME = /^(Bearer|DPoP)\b/i;
// RFC 6750 2.1 and RFC 9449 7.1: b64token after the scheme.
const PRESENTED = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Whether the request presents an access token: an Authorization header of the Bearer or DPoP
 * scheme, well-formed or not. Such a request is a token caller: its session cookie is ignored.
 */
export function presentsAccessToken(authorization: string | undefined): authorization is string {
  return authorization !== undefined && TOKEN_SCHEME.test(authorization);
}

/** The token of an Authorization header that `presentsAccessToken`; null when malformed. */
export function parsePresentedAccessToken(authorization: string): PresentedAccessToken | null {
  const match = PRESENTED.exec(authorization);
  if (!match?.[1] || !match[2]) return null;
  return { scheme: match[1].toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', token: match[2] };
}

/** The claims of one of our access tokens (RFC 9068) that a resource relies on. */
export interface AccessTokenClaims {
  userId: number;
  clientId: string;
  scopes: string[];
  jti: string;
  /** `iat`, seconds since the epoch: compared with the client's grant cutoff. */
  issuedAt: number;
}

/** The claims of a verified access token, or null when one lacks or has the wrong type. */
export function accessTokenClaimsOf(claims: Record<string, unknown>): AccessTokenClaims | null {
  const { sub, client_id: clientId, scope, jti, iat } = claims;
  if (
    typeof sub !== 'string' ||
    !/^[1-9][0-9]{0,9}$/.test(sub) ||
    typeof clientId !== 'string' ||
    typeof scope !== 'string' ||
    typeof jti !== 'string' ||
    typeof iat !== 'number'
  ) {
    return null;
  }
  return { userId: Number(sub), clientId, scopes: scope.split(' '), jti, issuedAt: iat };
}

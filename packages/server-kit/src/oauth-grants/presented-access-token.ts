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

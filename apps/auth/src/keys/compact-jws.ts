import { sign, type KeyObject } from 'node:crypto';

const base64url = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');

/** A protected header in its encoded form (RFC 7515 7.1), made once per key and type. */
export const encodeProtectedHeader = (header: Record<string, string>): string => base64url(header);

/**
 * An RS256 compact JWS (RFC 7515 7.1; RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 3.3) signed by
 * node:crypto in this thread. jose's SignJWT does the same through WebCrypto: it clones the
 * claims (structuredClone), re-encodes the header, and runs every signature as an asynchronous
 * job; the token endpoint signs twice per answer (docs/benchmarks.md §2.1). Tokens stay
 * byte-compatible: any JOSE library verifies them.
 */
export function signCompactRs256(
  encodedHeader: string,
  payload: Record<string, unknown>,
  key: KeyObject,
): string {
  const input = `${encodedHeader}.${base64url(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

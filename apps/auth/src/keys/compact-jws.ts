import { sign, verify, type KeyObject } from 'node:crypto';

const base64url = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');

/** A protected header in its encoded form (RFC 7515 7.1), made once per key and type. */
export const encodeProtectedHeader = (header: Record<string, string>): string => base64url(header);

/**
 * An RS256 compact JWS (RFC 7515 7.1; RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 3.3) signed by
 * node:crypto on the thread pool, as WebCrypto's jobs run, so that the signature does not hold
 * the event loop: the token endpoint signs twice per answer. jose's SignJWT cloned the claims
 * (structuredClone), re-encoded the header and imported the key into WebCrypto for each one
 * (docs/benchmarks.md §2.2). Any JOSE library verifies these tokens.
 */
export function signCompactRs256(
  encodedHeader: string,
  payload: Record<string, unknown>,
  key: KeyObject,
): Promise<string> {
  const input = `${encodedHeader}.${base64url(payload)}`;
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(input), key, (error, signature) => {
      if (error) reject(error);
      else resolve(`${input}.${signature.toString('base64url')}`);
    });
  });
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodeObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A compact JWS taken apart, its payload still encoded: it is decoded once the signature holds. */
export interface CompactJws {
  header: Record<string, unknown>;
  signingInput: string;
  encodedPayload: string;
  signature: Buffer;
}

/** The parts of a compact JWS (RFC 7515 7.1) with a JSON object header; null for anything else. */
export function parseCompactJws(token: string): CompactJws | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return null;
  const [encodedHeader, encodedPayload, signature] = parts as [string, string, string];
  const header = decodeObject(encodedHeader);
  if (!header) return null;
  return {
    header,
    signingInput: `${encodedHeader}.${encodedPayload}`,
    encodedPayload,
    signature: Buffer.from(signature, 'base64url'),
  };
}

/** Whether the RS256 signature of the JWS verifies with the public key. */
export const rs256Verifies = (jws: CompactJws, key: KeyObject): boolean =>
  verify('sha256', Buffer.from(jws.signingInput), key, jws.signature);

/** The JWS's payload as a JSON object, or null when it is not one. */
export const payloadOf = (jws: CompactJws): Record<string, unknown> | null =>
  decodeObject(jws.encodedPayload);

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The pepper of a development machine. A deployment sets CLIENT_SECRET_PEPPER; with this one,
 * anybody who reads the database could test guesses of a secret offline.
 */
export const DEVELOPMENT_CLIENT_SECRET_PEPPER = 'development-client-secret-pepper';

/** 256 random bits as 64 hex characters, the form the admin area shows once. */
export function generateClientSecret(): string {
  return randomBytes(32).toString('hex');
}

/**
 * HMAC-SHA-256 (hex) of a client secret. Secrets are random, so a keyed hash suffices; a
 * password hash would make every token request pay for argon2 (docs/design.md §4.10).
 */
export function hashClientSecret(secret: string, pepper: string): string {
  if (pepper === '') throw new Error('The client secret pepper must not be empty');
  return createHmac('sha256', pepper).update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function verifyClientSecret(secret: string, storedHash: string, pepper: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashClientSecret(secret, pepper), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

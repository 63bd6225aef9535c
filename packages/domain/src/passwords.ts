import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): about 15 ms here, slow enough
// to make offline guessing expensive while a login stays well under a frame budget.
// `algorithm: 2` is Argon2id; the library's const enum cannot be imported under type stripping.
const ARGON2_OPTIONS = {
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** Constant-time check; a malformed stored hash counts as a mismatch, never a crash. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of no real password, verified when the email is unknown so that a login for an
 * unknown account costs the same time as a wrong password (no account enumeration).
 */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword('decoy password that no account has');
  return decoyHash;
}

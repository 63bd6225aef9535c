import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes } from 'node:crypto';
import type { KeyValueStore } from '@foodshare/server-kit';

/** Long enough to follow the redirect, short enough that an unread secret does not linger. */
export const SECRET_FLASH_TTL_MS = 5 * 60 * 1000;

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Carries a freshly generated client secret across the redirect after the POST
 * (post/redirect/get) to the one page view that shows it. Bound to the admin's session and the
 * client; `take` removes it atomically, so a reload or a second tab finds nothing.
 *
 * Encrypted with a key derived from the session cookie's value, which the store never holds
 * (sessions are keyed by its hash): a dump of Redis in those minutes reveals no secret.
 */
export class SecretFlashStore {
  private readonly kv: KeyValueStore;
  private readonly ttlMs: number;

  constructor(kv: KeyValueStore, ttlMs: number = SECRET_FLASH_TTL_MS) {
    this.kv = kv;
    this.ttlMs = ttlMs;
  }

  async put(sessionId: string, clientRowId: number, secret: string): Promise<void> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', encryptionKey(sessionId), iv);
    cipher.setAAD(Buffer.from(String(clientRowId)));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    const value = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
    await this.kv.set(storeKey(sessionId, clientRowId), value, this.ttlMs);
  }

  /** The secret, once; null when it was already shown, expired, or belongs to another session. */
  async take(sessionId: string, clientRowId: number): Promise<string | null> {
    const value = await this.kv.take(storeKey(sessionId, clientRowId));
    if (value === null) return null;
    const bytes = Buffer.from(value, 'base64url');
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        encryptionKey(sessionId),
        bytes.subarray(0, IV_BYTES),
      );
      decipher.setAAD(Buffer.from(String(clientRowId)));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]);
      return plain.toString('utf8');
    } catch {
      return null;
    }
  }
}

function encryptionKey(sessionId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionId, '', 'foodshare oauth admin secret flash', 32));
}

function storeKey(sessionId: string, clientRowId: number): string {
  const digest = hash(
    'sha256',
    `oauth-admin-secret-flash:${sessionId}:${clientRowId}`,
    'base64url',
  );
  return `oauth-admin-secret:${digest}`;
}

import { createCipheriv, createDecipheriv, randomBytes, type JsonWebKey } from 'node:crypto';

/** AES-256-GCM: the key-encryption key is 32 bytes, the nonce 12, the tag 16 (NIST SP 800-38D). */
const KEY_LENGTH = 32;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;
const FORMAT_VERSION = 'v1';

export class KeyEncryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyEncryptionError';
  }
}

/**
 * KEY_ENCRYPTION_KEY as 64 hex characters or as base64 / base64url of 32 bytes; null when the
 * value is neither (configuration names the variable then).
 */
export function parseKeyEncryptionKey(value: string): Uint8Array | null {
  const trimmed = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return new Uint8Array(Buffer.from(trimmed, 'hex'));
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === KEY_LENGTH) return new Uint8Array(bytes);
  }
  return null;
}

function assertKeyLength(kek: Uint8Array): void {
  if (kek.length !== KEY_LENGTH) {
    throw new KeyEncryptionError(`The key-encryption key must be ${KEY_LENGTH} bytes`);
  }
}

/**
 * Encrypts a private JWK for storage: `v1.<iv>.<ciphertext>.<tag>` (base64url). The kid is the
 * additional authenticated data, so a ciphertext copied onto another key's row does not decrypt.
 */
export function encryptPrivateJwk(jwk: JsonWebKey, kek: Uint8Array, kid: string): string {
  assertKeyLength(kek);
  const iv = randomBytes(IV_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_LENGTH });
  cipher.setAAD(Buffer.from(kid, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(jwk), 'utf8'), cipher.final()]);
  return [FORMAT_VERSION, iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The private JWK of a stored key; throws KeyEncryptionError for a wrong key or a tampered row. */
export function decryptPrivateJwk(stored: string, kek: Uint8Array, kid: string): JsonWebKey {
  assertKeyLength(kek);
  const [version, iv, ciphertext, tag, ...rest] = stored.split('.');
  if (version !== FORMAT_VERSION || !iv || !ciphertext || !tag || rest.length > 0) {
    throw new KeyEncryptionError(`The private key of ${kid} is not in a known format`);
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', kek, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_LENGTH,
    });
    decipher.setAAD(Buffer.from(kid, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const clear = Buffer.concat([
      decipher.update(Buffer.from(ciphertext, 'base64url')),
      decipher.final(),
    ]);
    return JSON.parse(clear.toString('utf8')) as JsonWebKey;
  } catch {
    throw new KeyEncryptionError(
      `The private key of ${kid} does not decrypt with this KEY_ENCRYPTION_KEY`,
    );
  }
}

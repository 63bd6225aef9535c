import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkoutRoot } from '../checkout-root.ts';
import { KeyEncryptionError, parseKeyEncryptionKey } from './key-encryption.ts';

export const DEVELOPMENT_KEY_FILE_NAME = 'dev-key-encryption-key';

/** The key-encryption key of a development checkout, and where it is kept. */
export interface DevelopmentKeyEncryptionKey {
  key: Uint8Array;
  file: string;
  /** True when this call generated it (the checkout's first use). */
  created: boolean;
}

/** `<checkout>/.data/dev-key-encryption-key` (.data is git-ignored). */
export function defaultDevelopmentKeyFile(): string {
  return path.join(checkoutRoot(), '.data', DEVELOPMENT_KEY_FILE_NAME);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/**
 * Writes a fresh random key to `file` unless it exists; true when this call wrote it. The key is
 * written to a private temporary file first (flag `wx`, mode 0600), then hard-linked to its
 * name. The link fails when the name exists. So of processes racing on a fresh checkout
 * (parallel test workers) exactly one wins, and nobody ever reads a half-written file. Where
 * hard links are not available, the file is created directly with `wx`.
 */
function createKeyFile(file: string): boolean {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const content = `${randomBytes(32).toString('hex')}\n`;
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, content, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    try {
      writeFileSync(file, content, { flag: 'wx', mode: 0o600 });
      return true;
    } catch (direct) {
      if (errorCode(direct) === 'EEXIST') return false;
      throw direct;
    }
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // Gone already; nothing to clean up.
    }
  }
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function readKeyFile(file: string): Uint8Array | null {
  // An empty file is one being written by another process (the direct `wx` path): wait a little.
  for (let attempt = 0; ; attempt += 1) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
    if (text.trim() !== '' || attempt >= 20) {
      const key = parseKeyEncryptionKey(text);
      if (key) return key;
      throw new KeyEncryptionError(
        `${file} does not hold a key-encryption key (32 bytes as 64 hex characters); ` +
          'delete it to have a new one generated, or set KEY_ENCRYPTION_KEY',
      );
    }
    sleepSync(50);
  }
}

/**
 * The key-encryption key of a development checkout or test run (KEY_ENCRYPTION_KEY unset outside
 * production): 32 random bytes generated on first use and kept in a file every process of the
 * checkout shares, so that a restarted server still decrypts the signing keys it stored. Never a
 * value from the repository: a key anyone can read protects nothing, and a development database
 * copied elsewhere would be open to all. Production refuses to start without KEY_ENCRYPTION_KEY.
 */
export function developmentKeyEncryptionKey(
  file: string = defaultDevelopmentKeyFile(),
): DevelopmentKeyEncryptionKey {
  const existing = readKeyFile(file);
  if (existing) return { key: existing, file, created: false };
  const created = createKeyFile(file);
  const key = readKeyFile(file);
  if (!key) throw new KeyEncryptionError(`${file} vanished while it was being created`);
  return { key, file, created };
}

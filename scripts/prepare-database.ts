import {
  decryptPrivateJwk,
  developmentKeyEncryptionKey,
  loadDemoDataIfEmpty,
  loadPublishedSigningKeys,
  migrateDatabase,
  openOrm,
  parseKeyEncryptionKey,
} from '@foodshare/domain';
import { redactUrl, StartupFailure, startupFailureLine } from '@foodshare/server-kit';

/**
 * What a deployment's migrate job does, and what the zero-set-up commands do at every start:
 * migrates the database and loads the demo data into an empty one. On a connection of its
 * own, without a request's bounds: on a busy machine either may take longer than a request
 * may wait. The demo clients' secret is hashed with `clientSecretPepper`, the one the auth
 * service verifies with. Returns whether the demo data was loaded.
 */
export async function prepareDatabase(
  url: string,
  demoData: { clientSecretPepper: string },
  auth: { KEY_ENCRYPTION_KEY?: string | undefined } = {},
): Promise<boolean> {
  await migrate(url);
  const setupOrm = await openOrm({ url, poolSize: 1 });
  try {
    await signingKeysDecrypt(setupOrm.em.fork(), url, auth);
    return await loadDemoDataIfEmpty(setupOrm.em.fork(), demoData);
  } finally {
    await setupOrm.close();
  }
}

/**
 * The auth service's key-encryption key (apps/auth/src/auth-services.ts): KEY_ENCRYPTION_KEY, or else the
 * development key of this checkout (`.data/`), which another checkout does not share.
 */
function keyEncryptionKey(auth: { KEY_ENCRYPTION_KEY?: string | undefined }): Uint8Array {
  return auth.KEY_ENCRYPTION_KEY === undefined
    ? developmentKeyEncryptionKey().key
    : parseKeyEncryptionKey(auth.KEY_ENCRYPTION_KEY)!;
}

// Checked here, before any service starts: a database whose signing keys another checkout (or
// deployment) stored would otherwise stop every auth instance with a stack trace.
async function signingKeysDecrypt(
  em: Parameters<typeof loadPublishedSigningKeys>[0],
  url: string,
  auth: { KEY_ENCRYPTION_KEY?: string | undefined },
): Promise<void> {
  const kek = keyEncryptionKey(auth);
  for (const key of await loadPublishedSigningKeys(em)) {
    try {
      decryptPrivateJwk(key.privateKeyEncrypted, kek, key.kid);
    } catch (error) {
      throw new StartupFailure(
        `the signing keys in the database at ${redactUrl(url)} do not decrypt with ${auth.KEY_ENCRYPTION_KEY === undefined ? "this checkout's development key (.data/dev-key-encryption-key)" : 'this KEY_ENCRYPTION_KEY'}: another checkout or deployment stored them; set DATABASE_URL to a database of this checkout's own, or KEY_ENCRYPTION_KEY to the key they were stored with`,
        { cause: error },
      );
    }
  }
}

// A migration that fails on a reachable database met a schema that is not this project's
// (another application's database, or one changed by hand); unreachable is said as such.
async function migrate(url: string): Promise<void> {
  try {
    await migrateDatabase(url);
  } catch (error) {
    if (startupFailureLine(error, { DATABASE_URL: url })) throw error;
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new StartupFailure(
      `migrating the database at ${redactUrl(url)} failed (${reason}): set DATABASE_URL to an empty database or one only this project migrates`,
      { cause: error },
    );
  }
}

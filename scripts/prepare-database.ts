import { loadDemoDataIfEmpty, migrateDatabase, openOrm } from '@foodshare/domain';
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
): Promise<boolean> {
  await migrate(url);
  const setupOrm = await openOrm({ url, poolSize: 1 });
  try {
    return await loadDemoDataIfEmpty(setupOrm.em.fork(), demoData);
  } finally {
    await setupOrm.close();
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

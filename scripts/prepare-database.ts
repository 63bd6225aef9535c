import { loadDemoDataIfEmpty, migrateDatabase, openOrm } from '@foodshare/domain';

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
  await migrateDatabase(url);
  const setupOrm = await openOrm({ url, poolSize: 1 });
  try {
    return await loadDemoDataIfEmpty(setupOrm.em.fork(), demoData);
  } finally {
    await setupOrm.close();
  }
}

import {
  DEFAULT_DATABASE_URL,
  dropDatabase,
  sanitizeIdentifier,
  startDisposableRedis,
  TEST_STORE_TIMEOUTS,
  withDatabaseName,
} from '@foodshare/testing';

/**
 * A cluster test's own stores: an empty database on the shared PostgreSQL, which the cluster
 * migrates and fills with the demo data as it would a new deployment's, and a Redis of its
 * own on a free port, so that nothing it does reaches the Redis other tests share.
 */
export async function clusterTestStores(suite: string) {
  const server = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const name = sanitizeIdentifier(`fs_test_cluster_${suite}_${process.pid}`);
  // A database left over by an interrupted run of the same pid must not count as prepared.
  await dropDatabase(server, name);
  const redis = await startDisposableRedis();
  return {
    env: {
      DATABASE_URL: withDatabaseName(server, name),
      REDIS_URL: redis.url,
      // The cluster tests share the machine with the others: they test routing and shared
      // state, not the bounds a busy moment may exceed (the fault tests do).
      ...TEST_STORE_TIMEOUTS,
    },
    async dispose() {
      await redis.dispose();
      await dropDatabase(server, name);
    },
  };
}

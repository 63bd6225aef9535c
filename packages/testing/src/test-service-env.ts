import {
  workerDatabase,
  workerRedis,
  type WorkerDatabase,
  type WorkerRedis,
} from './test-databases.ts';

/**
 * The bounds on PostgreSQL and Redis of a service under test. Test files run side by side on a
 * few cores: a query may wait far longer than in production without anything being wrong. The
 * fault tests keep the real bounds.
 */
export const TEST_STORE_TIMEOUTS = {
  DATABASE_CONNECT_TIMEOUT_MS: '15000',
  DATABASE_STATEMENT_TIMEOUT_MS: '30000',
  REDIS_CONNECT_TIMEOUT_MS: '10000',
  REDIS_COMMAND_TIMEOUT_MS: '10000',
};

export interface TestServiceEnv {
  /** The environment a service's loadConfig() takes, pointing at this worker's own stores. */
  env: Record<string, string>;
  database: WorkerDatabase;
  redis: WorkerRedis;
}

/** Environment for a service under test: its own database copy and Redis key prefix. */
export async function testServiceEnv(suite: string): Promise<TestServiceEnv> {
  const database = await workerDatabase(suite);
  const redis = workerRedis(suite);
  return {
    database,
    redis,
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.keyPrefix,
      ...TEST_STORE_TIMEOUTS,
    },
  };
}

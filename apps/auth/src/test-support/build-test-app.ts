import { workerDatabase, workerRedis } from '@foodshare/testing';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

/**
 * The production app on this worker's own database (cloned from the migrated template)
 * and its own Redis key prefix. Tests talk to it through `app.inject()`.
 */
export async function buildTestApp(env: Record<string, string> = {}) {
  const database = await workerDatabase('auth');
  const redis = workerRedis('auth');
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: redis.keyPrefix,
    ...env,
  });
  // Not yet ready: a test may add a probe route first; inject() readies the app.
  return { app: await buildApp(config), database, redis };
}

import { testServiceEnv } from '@foodshare/testing';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

/**
 * The production app on this worker's own database (cloned from the migrated template)
 * and Redis key prefix. Not yet ready: a test may add a probe route first; inject()
 * readies the app.
 */
export async function buildTestApp(overrides: Record<string, string> = {}) {
  const { env, database, redis } = await testServiceEnv('api');
  return { app: await buildApp(loadConfig({ ...env, ...overrides })), database, redis };
}

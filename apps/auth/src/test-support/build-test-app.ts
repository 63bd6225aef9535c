import type { SharedInfrastructure } from '@foodshare/server-kit';
import { testServiceEnv } from '@foodshare/testing';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

/**
 * The production app on this worker's own database (cloned from the migrated template)
 * and Redis key prefix. Not yet ready: a test may add a probe route first; inject()
 * readies the app. `shared.logStream` lets a test read the log lines (set LOG_LEVEL too);
 * `shared.kv` puts a store of the test's own in place of the app's.
 */
export async function buildTestApp(
  overrides: Record<string, string> = {},
  shared: Pick<SharedInfrastructure, 'logStream' | 'kv'> = {},
) {
  const { env, database, redis } = await testServiceEnv('auth');
  return { app: await buildApp(loadConfig({ ...env, ...overrides }), shared), database, redis };
}

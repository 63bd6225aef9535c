import { testServiceEnv } from '@foodshare/testing';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

/**
 * The production app on this worker's own database (cloned from the migrated template)
 * and Redis key prefix. Not yet ready: a test may add a probe route first; inject()
 * readies the app. `env` is what its config was loaded from.
 */
export async function buildTestApp(overrides: Record<string, string> = {}) {
  const { env: base, database, redis } = await testServiceEnv('api');
  const env = { ...base, ...overrides };
  return { app: await buildApp(loadConfig(env)), database, redis, env };
}

/**
 * A second app with other settings on the same database, Redis prefix and ORM as `beside`:
 * a new buildTestApp() would replace the worker's database under the first app. Closing it
 * leaves the shared ORM open.
 */
export function buildAppBeside(beside: TestApp, overrides: Record<string, string> = {}) {
  return buildApp(loadConfig({ ...beside.env, ...overrides }), { orm: beside.app.orm });
}

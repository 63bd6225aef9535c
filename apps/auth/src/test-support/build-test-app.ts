import type { SharedInfrastructure } from '@foodshare/server-kit';
import { testServiceEnv } from '@foodshare/testing';
import { buildAuthServer, type AuthApp } from '../app.ts';
import type { AuthServices } from '../auth-services.ts';
import { loadConfig, type AuthConfig } from '../config.ts';

const servicesByApp = new WeakMap<AuthApp, AuthServices>();

/** The services an app built for a test was given (its stores, keys, metrics). */
export function servicesOf(app: AuthApp): AuthServices {
  const services = servicesByApp.get(app);
  if (!services) throw new Error('servicesOf: the app was not built by buildTestAuthServer');
  return services;
}

/** `buildAuthServer`, with the services kept for `servicesOf`. */
export async function buildTestAuthServer(
  config: AuthConfig,
  shared: SharedInfrastructure = {},
): Promise<AuthApp> {
  const { app, services } = await buildAuthServer(config, shared);
  servicesByApp.set(app, services);
  return app;
}

/**
 * The production app on this worker's own database (cloned from the migrated template)
 * and Redis key prefix. Not yet ready: a test may add a probe route first; inject()
 * readies the app. `shared.logStream` lets a test read the log lines (set LOG_LEVEL too);
 * `shared.kv` puts a store of the test's own in place of the app's.
 */
export async function buildTestApp(
  overrides: Record<string, string> = {},
  shared: TestAppShared = {},
) {
  const { env, database, redis } = await testServiceEnv('auth');
  const app = await buildTestAuthServer(loadConfig({ ...env, ...overrides }), shared);
  // The environment without the overrides, for a service beside the app on the same stores.
  return { app, database, redis, env };
}

/** What a test may put in place of the app's own infrastructure: a log stream, a store. */
export type TestAppShared = Pick<SharedInfrastructure, 'logStream' | 'kv'>;

/** An app built for a test, with the database, Redis prefix and environment it runs on. */
export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

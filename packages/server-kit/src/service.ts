import type { MikroORM } from '@foodshare/domain';
import {
  registerAjvFormats,
  TypeBoxValidatorCompiler,
  type TypeBoxTypeProvider,
} from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import type { KeyValueStore } from './kv/key-value-store.ts';
import { loggerOptions } from './logging.ts';
import { csrfPlugin } from './plugins/csrf.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { healthPlugin } from './plugins/health.ts';
import { keyValueStorePlugin } from './plugins/key-value-store.ts';
import { ormPlugin } from './plugins/orm.ts';
import { requestIdOptions, requestIdPlugin } from './plugins/request-id.ts';
import { sessionPlugin } from './plugins/session.ts';

/** The settings every service shares (a subset of each service's validated config). */
export interface ServiceSettings {
  BASE_URL: string;
  DATABASE_URL: string;
  REDIS_URL: string;
  REDIS_KEY_PREFIX: string;
  LOG_LEVEL: string;
  SESSION_COOKIE_SECURE?: boolean | undefined;
  TRUST_PROXY: string;
  LOGIN_MAX_FAILURES_PER_ACCOUNT: number;
  LOGIN_MAX_FAILURES_PER_IP: number;
  LOGIN_FAILURE_WINDOW_SECONDS: number;
}

/** Infrastructure handed in by the one-process start, so both services share it. */
export interface SharedInfrastructure {
  orm?: MikroORM;
  kv?: KeyValueStore;
}

export type ServiceApp = ReturnType<typeof createBareApp>;

/** `true`, `false`, or proxy addresses and ranges as Fastify's trustProxy takes them. */
function trustProxySetting(value: string): boolean | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

// TypeBox's checker knows no string formats until they are registered (email, uuid, date-time).
registerAjvFormats();

function createBareApp(settings: ServiceSettings) {
  return Fastify({
    logger: loggerOptions(settings.LOG_LEVEL),
    ...requestIdOptions(),
    trustProxy: trustProxySetting(settings.TRUST_PROXY),
    bodyLimit: 256 * 1024,
  })
    .setValidatorCompiler(TypeBoxValidatorCompiler)
    .withTypeProvider<TypeBoxTypeProvider>();
}

/**
 * A Fastify instance with what every service of ours has: request ids, problem+json
 * errors, PostgreSQL, the key-value store, sessions, CSRF and health checks. The service
 * then registers its own routes. Never listens.
 */
export async function createServiceApp(
  settings: ServiceSettings,
  shared: SharedInfrastructure = {},
) {
  const app = createBareApp(settings);
  await app.register(requestIdPlugin);
  await app.register(errorsPlugin);
  await app.register(ormPlugin, {
    databaseUrl: settings.DATABASE_URL,
    ...(shared.orm ? { orm: shared.orm } : {}),
  });
  await app.register(keyValueStorePlugin, {
    redisUrl: settings.REDIS_URL,
    keyPrefix: settings.REDIS_KEY_PREFIX,
    ...(shared.kv ? { store: shared.kv } : {}),
  });
  await app.register(sessionPlugin, {
    secureCookies: settings.SESSION_COOKIE_SECURE ?? settings.BASE_URL.startsWith('https:'),
    loginThrottle: {
      perAccount: settings.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      perIp: settings.LOGIN_MAX_FAILURES_PER_IP,
      windowMs: settings.LOGIN_FAILURE_WINDOW_SECONDS * 1000,
    },
  });
  await app.register(csrfPlugin);
  await app.register(healthPlugin);
  return app;
}

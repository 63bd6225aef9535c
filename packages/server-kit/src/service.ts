import type { MikroORM } from '@foodshare/domain';
import {
  registerAjvFormats,
  TypeBoxValidatorCompiler,
  type TypeBoxTypeProvider,
} from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import type { DestinationStream } from 'pino';
import {
  type CommonEnv,
  databasePooling,
  databaseTimeouts,
  redisConnection,
  redisTimeouts,
  secureCookies,
} from './config/common-env.ts';
import type { KeyValueStore } from './kv/key-value-store.ts';
import { logFormat, loggerOptions } from './logging.ts';
import { csrfPlugin } from './plugins/csrf.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { healthPlugin } from './plugins/health.ts';
import type { ServiceRelease } from './release.ts';
import { keyValueStorePlugin } from './plugins/key-value-store.ts';
import { ormPlugin } from './plugins/orm.ts';
import { requestIdOptions, requestIdPlugin } from './plugins/request-id.ts';
import { requestsUnderWayPlugin } from './plugins/requests-under-way.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { sessionPlugin } from './plugins/session.ts';
import { RequestLogController } from './request-log.ts';
import { rejectingNulCharacters } from './validation.ts';

/**
 * Infrastructure handed in from outside: by the one-process start, so both services share it,
 * or by a test that reads what the service logs.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** Which service this is and its release (/health, the start log line, build_info). */
    release: ServiceRelease & { service: string };
  }
}

export interface SharedInfrastructure {
  orm?: MikroORM;
  kv?: KeyValueStore;
  /** Where the log lines go (pino's JSON, one per line) instead of standard output. */
  logStream?: DestinationStream;
}

/** `true`, `false`, or proxy addresses and ranges as Fastify's trustProxy takes them. */
function trustProxySetting(value: string): boolean | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

// TypeBox's checker knows no string formats until they are registered (email, uuid, date-time).
registerAjvFormats();

// No request part may carry U+0000: PostgreSQL text cannot hold it (validation.ts).
function createBareApp(
  service: string,
  settings: CommonEnv,
  logStream: DestinationStream | undefined,
) {
  return Fastify({
    logger: loggerOptions(
      {
        service,
        level: settings.LOG_LEVEL,
        // A test's stream is read by a program.
        format: logFormat(settings, logStream === undefined && process.stdout.isTTY),
      },
      logStream,
    ),
    // One line per request instead of two.
    logController: new RequestLogController(),
    ...requestIdOptions(),
    trustProxy: trustProxySetting(settings.TRUST_PROXY),
    bodyLimit: 256 * 1024,
    // A request that still arrives over an open connection once a graceful stop closes the app
    // is answered (with `Connection: close`, run-server.ts), not refused with Fastify's bare
    // 503: behind a proxy, that 503 reaches the client, while the connections a stopped
    // instance refuses afterwards are tried at another instance (scripts/cluster).
    return503OnClosing: false,
    // Node's own bounds on receiving a request; without them a body that trickles in holds
    // its connection (and a graceful stop) for as long as the client likes.
    requestTimeout: settings.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: settings.KEEP_ALIVE_TIMEOUT_MS,
    http: {
      headersTimeout: settings.HEADERS_TIMEOUT_MS,
      // How often Node looks for requests over their bounds (30 s by default).
      connectionsCheckingInterval: Math.min(1_000, settings.HEADERS_TIMEOUT_MS),
    },
  })
    .setValidatorCompiler(rejectingNulCharacters(TypeBoxValidatorCompiler))
    .withTypeProvider<TypeBoxTypeProvider>();
}

/**
 * A Fastify instance with what every service of ours has: a count of the requests under way
 * (for a graceful stop), request ids, one log line per request, problem+json errors,
 * PostgreSQL, the key-value store, sessions, CSRF and health checks. The service then
 * registers its own routes. Never listens. `service` (`api`, `auth`) names it in every log
 * line.
 */
export async function createServiceApp(
  service: string,
  settings: CommonEnv,
  shared: SharedInfrastructure = {},
  release: ServiceRelease = { version: 'unknown', commit: 'unknown' },
) {
  const app = createBareApp(service, settings, shared.logStream);
  app.decorate('release', { service, ...release });
  // First, so that a request is counted before any hook of another plugin waits on a store.
  await app.register(requestsUnderWayPlugin);
  await app.register(requestIdPlugin);
  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin, { https: settings.BASE_URL.startsWith('https:') });
  await app.register(ormPlugin, {
    databaseUrl: settings.DATABASE_URL,
    timeouts: databaseTimeouts(settings),
    pooling: databasePooling(settings),
    ...(shared.orm ? { orm: shared.orm } : {}),
  });
  await app.register(keyValueStorePlugin, {
    redis: redisConnection(settings),
    keyPrefix: settings.REDIS_KEY_PREFIX,
    timeouts: redisTimeouts(settings),
    ...(shared.kv ? { store: shared.kv } : {}),
  });
  await app.register(sessionPlugin, {
    secureCookies: secureCookies(settings),
    loginThrottle: {
      perAccountAndAddress: settings.LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP,
      perAccount: settings.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      perAddress: settings.LOGIN_MAX_FAILURES_PER_IP,
      windowMs: settings.LOGIN_FAILURE_WINDOW_SECONDS * 1000,
      knownAddressMs: settings.LOGIN_KNOWN_ADDRESS_DAYS * 24 * 60 * 60 * 1000,
    },
  });
  await app.register(csrfPlugin);
  await app.register(healthPlugin, {
    // Both checks together within about the time a request would wait for either.
    checkTimeoutMs: Math.max(
      settings.DATABASE_CONNECT_TIMEOUT_MS,
      settings.REDIS_COMMAND_TIMEOUT_MS,
    ),
    stalledPoolLimitMs: settings.POOL_STALLED_LIVENESS_MS,
  });
  return app;
}

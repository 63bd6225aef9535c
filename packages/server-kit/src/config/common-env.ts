import { isIP } from 'node:net';
import { type Static, Type } from 'typebox';
import { parseRedisEndpoints, type RedisConnection } from '../kv/redis-connection.ts';

/** Environment variables both services read; each service adds its own. */
export const CommonEnvProperties = {
  NODE_ENV: Type.Union(
    [Type.Literal('development'), Type.Literal('test'), Type.Literal('production')],
    { default: 'development' },
  ),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1 }),
  /** The one public origin of both services, without a trailing slash. */
  BASE_URL: Type.String({
    default: 'http://localhost:8080',
    pattern: '^https?://[^/\\s]+$',
  }),
  /**
   * The REST API's identifier as an OAuth resource (docs/oauth.md §11): the audience of access
   * tokens with the scope `api`, which the API accepts. Both services must agree on it; by
   * default `<BASE_URL>/api` (apiAudienceOf).
   */
  API_AUDIENCE: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 500 })),
  DATABASE_URL: Type.String({ pattern: '^postgres(ql)?://' }),
  /**
   * PostgreSQL connections this instance opens at most. Every instance of both services holds up
   * to this many: docs/deploy.md §4 sets it against max_connections.
   */
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /**
   * Named prepared statements for the hot reads. False behind a pooler in transaction mode
   * that cannot keep them (PgBouncer before 1.21, or without max_prepared_statements).
   */
  DATABASE_PREPARED_STATEMENTS: Type.Boolean({ default: true }),
  REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379', pattern: '^rediss?://' }),
  REDIS_KEY_PREFIX: Type.String({ default: '' }),
  /** The commit an image was built from (its build argument); else the checkout's own. */
  RELEASE_COMMIT: Type.Optional(Type.String({ pattern: '^[0-9a-zA-Z._-]{1,64}$' })),
  /**
   * Redis through Sentinel: `host:port` of each sentinel, separated by commas. Set, the sentinels
   * name the master and REDIS_URL gives only the password, database and TLS, not the host.
   */
  REDIS_SENTINELS: Type.Optional(Type.String()),
  /** The master's name in the sentinels' configuration (`sentinel monitor <name> ...`). */
  REDIS_SENTINEL_MASTER: Type.String({ default: 'mymaster', pattern: '^\\S+$' }),
  /** The sentinels' own password (their `requirepass`), if they have one. */
  REDIS_SENTINEL_PASSWORD: Type.Optional(Type.String({ minLength: 1 })),
  LOG_LEVEL: Type.Union(
    [
      Type.Literal('fatal'),
      Type.Literal('error'),
      Type.Literal('warn'),
      Type.Literal('info'),
      Type.Literal('debug'),
      Type.Literal('trace'),
      Type.Literal('silent'),
    ],
    { default: 'info' },
  ),
  /** `pretty` (readable lines) or `json`; by default pretty on a terminal outside production. */
  LOG_FORMAT: Type.Optional(Type.Union([Type.Literal('pretty'), Type.Literal('json')])),
  /** Secure cookies; defaults to on when BASE_URL is https. */
  SESSION_COOKIE_SECURE: Type.Optional(Type.Boolean()),
  /** Which proxies' X-Forwarded-For to believe (Fastify's trustProxy): the client IP throttles logins. */
  TRUST_PROXY: Type.String({ default: 'loopback' }),
  LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP: Type.Integer({ minimum: 1, default: 5 }),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: Type.Integer({ minimum: 1, default: 50 }),
  LOGIN_MAX_FAILURES_PER_IP: Type.Integer({ minimum: 1, default: 30 }),
  LOGIN_FAILURE_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 900 }),
  /** Days an address stays exempt from the per-account limit after a login from it. */
  LOGIN_KNOWN_ADDRESS_DAYS: Type.Integer({ minimum: 1, default: 30 }),
  // Bounded waits: a lost dependency answers 503 quickly instead of holding every request.
  /** Waiting for a PostgreSQL connection from the pool, connecting included. */
  DATABASE_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 1000 }),
  /** One SQL statement (PostgreSQL's statement_timeout; the client gives up 250 ms later). */
  DATABASE_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 1000 }),
  /** Connecting to Redis. */
  REDIS_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 1000 }),
  /** One Redis command. */
  REDIS_COMMAND_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 1000 }),
  /** /health/live fails once the database pool has handed out no connection for this long. */
  POOL_STALLED_LIVENESS_MS: Type.Integer({ minimum: 1, default: 60_000 }),
  /** A whole request, its body included; 408 after it. */
  REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 30_000 }),
  /** Receiving a request's headers. */
  HEADERS_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 10_000 }),
  /** How long an idle keep-alive connection stays open. */
  KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 5_000 }),
};

export const CommonEnvSchema = Type.Object(CommonEnvProperties);

/** The audience of access tokens for the REST API: API_AUDIENCE, or `<BASE_URL>/api`. */
export function apiAudienceOf(config: Pick<CommonEnv, 'API_AUDIENCE' | 'BASE_URL'>): string {
  return config.API_AUDIENCE ?? `${config.BASE_URL}/api`;
}
/** The settings every service shares (a subset of each service's validated config). */
export type CommonEnv = Static<typeof CommonEnvSchema>;

function isLoopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/**
 * Production runs behind HTTPS (docs/spec.md §5.2 rule 10): an http origin other than a
 * loopback one, or session cookies without `Secure`, are configuration mistakes there.
 */
export function productionRules(config: CommonEnv): string[] {
  if (config.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  const base = new URL(config.BASE_URL);
  if (base.protocol !== 'https:' && !isLoopback(base)) {
    problems.push('BASE_URL: must be https in production');
  }
  if (config.SESSION_COOKIE_SECURE === false && !isLoopback(base)) {
    problems.push('SESSION_COOKIE_SECURE: must not be false in production');
  }
  // Trusting every hop lets any client choose its own address and escape the throttle.
  if (config.TRUST_PROXY === 'true') {
    problems.push('TRUST_PROXY: name the proxies in production instead of trusting every hop');
  }
  return problems;
}

const TRUST_PROXY_KEYWORDS = ['true', 'false', 'loopback', 'linklocal', 'uniquelocal'];

/** TRUST_PROXY: true, false, or a comma-separated list of keywords, addresses and ranges. */
export function trustProxyRule(config: CommonEnv): string[] {
  const valid = config.TRUST_PROXY.split(',').every((raw) => {
    const item = raw.trim();
    if (TRUST_PROXY_KEYWORDS.includes(item)) return true;
    const [address = '', prefix] = item.split('/');
    return isIP(address) !== 0 && (prefix === undefined || /^\d{1,3}$/.test(prefix));
  });
  return valid
    ? []
    : ['TRUST_PROXY: must be true, false, or keywords, addresses and ranges separated by commas'];
}

/** Secure cookies unless turned off explicitly; by default on in production and for https. */
export function secureCookies(config: CommonEnv): boolean {
  return (
    config.SESSION_COOKIE_SECURE ??
    (config.NODE_ENV === 'production' || config.BASE_URL.startsWith('https:'))
  );
}

// Node refuses a headers timeout longer than the request timeout.
export function timeoutRule(config: CommonEnv): string[] {
  return config.HEADERS_TIMEOUT_MS > config.REQUEST_TIMEOUT_MS
    ? ['HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS']
    : [];
}

/** REDIS_SENTINELS: a list of host:port; a sentinel password without sentinels is a mistake. */
export function redisSentinelRule(config: CommonEnv): string[] {
  if (config.REDIS_SENTINELS === undefined) {
    return config.REDIS_SENTINEL_PASSWORD === undefined
      ? []
      : ['REDIS_SENTINEL_PASSWORD: is only used with REDIS_SENTINELS'];
  }
  return parseRedisEndpoints(config.REDIS_SENTINELS)
    ? []
    : ['REDIS_SENTINELS: must be host:port pairs separated by commas'];
}

/** The cross-variable rules every service applies to its configuration. */
export const COMMON_CONFIG_RULES = [
  productionRules,
  trustProxyRule,
  timeoutRule,
  redisSentinelRule,
];

/** The database bounds of a service's configuration. */
export function databaseTimeouts(config: CommonEnv) {
  return {
    connectMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  };
}

/** Where a service's Redis is: the server at REDIS_URL, or the master its sentinels name. */
export function redisConnection(config: CommonEnv): RedisConnection {
  const sentinels = config.REDIS_SENTINELS && parseRedisEndpoints(config.REDIS_SENTINELS);
  if (!sentinels) return { url: config.REDIS_URL };
  return {
    url: config.REDIS_URL,
    sentinel: {
      sentinels,
      masterName: config.REDIS_SENTINEL_MASTER,
      password: config.REDIS_SENTINEL_PASSWORD,
    },
  };
}

/** How a service's connections to PostgreSQL are pooled (packages/domain openOrm). */
export function databasePooling(config: CommonEnv) {
  return {
    poolSize: config.DATABASE_POOL_SIZE,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  };
}

/** The Redis bounds of a service's configuration. */
export function redisTimeouts(config: CommonEnv) {
  return { connectMs: config.REDIS_CONNECT_TIMEOUT_MS, commandMs: config.REDIS_COMMAND_TIMEOUT_MS };
}

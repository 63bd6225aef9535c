import { Type } from 'typebox';

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
  DATABASE_URL: Type.String({ pattern: '^postgres(ql)?://' }),
  REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379', pattern: '^rediss?://' }),
  REDIS_KEY_PREFIX: Type.String({ default: '' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) =>
      Type.Literal(level),
    ),
    { default: 'info' },
  ),
  /** Secure cookies; defaults to on when BASE_URL is https. */
  SESSION_COOKIE_SECURE: Type.Optional(Type.Boolean()),
  /** Which proxies' X-Forwarded-For to believe (Fastify's trustProxy): the client IP throttles logins. */
  TRUST_PROXY: Type.String({ default: 'loopback' }),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: Type.Integer({ minimum: 1, default: 5 }),
  LOGIN_MAX_FAILURES_PER_IP: Type.Integer({ minimum: 1, default: 30 }),
  LOGIN_FAILURE_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 900 }),
};

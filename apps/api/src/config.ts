import { COMMON_CONFIG_RULES, CommonEnvProperties, loadConfigFrom } from '@foodshare/server-kit';
import { Type, type Static } from 'typebox';

export const ApiEnvSchema = Type.Object({
  ...CommonEnvProperties,
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001 }),
  /** The host of the platform's mail addresses: a unit's mailbox `musterstadt` is `musterstadt@<host>`. */
  MAILBOX_HOST: Type.String({
    default: 'foodsharing.network',
    pattern:
      '^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$',
  }),
  /**
   * The authorization server's published keys, which access tokens are verified with
   * (docs/oauth.md §11). By default `<BASE_URL>/.well-known/jwks.json` (jwksUrlOf). Only this URL
   * is ever fetched.
   */
  OAUTH_JWKS_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 500 })),
  /** A token signed with a key the cache does not know fetches the keys again, at most this often. */
  OAUTH_JWKS_REFETCH_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 30 }),
  /** How long fetched keys are used before they are fetched again (a retired key goes). */
  OAUTH_JWKS_MAX_AGE_SECONDS: Type.Integer({ minimum: 60, maximum: 86_400, default: 600 }),
  /** One fetch of the keys, connecting included. */
  OAUTH_JWKS_TIMEOUT_MS: Type.Integer({ minimum: 1, maximum: 30_000, default: 2000 }),
});

/** The URL of the authorization server's keys: OAUTH_JWKS_URL, or the one of BASE_URL. */
export function jwksUrlOf(config: ApiConfig): string {
  return config.OAUTH_JWKS_URL ?? `${config.BASE_URL}/.well-known/jwks.json`;
}

export type ApiConfig = Static<typeof ApiEnvSchema>;

/** Validates the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): ApiConfig {
  return loadConfigFrom(ApiEnvSchema, env, COMMON_CONFIG_RULES);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The validated configuration, for routes that need the public origin (BASE_URL). */
    config: ApiConfig;
  }
}

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
});

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

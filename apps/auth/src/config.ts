import { COMMON_CONFIG_RULES, CommonEnvProperties, loadConfigFrom } from '@foodshare/server-kit';
import { Type, type Static } from 'typebox';

export const AuthEnvSchema = Type.Object({
  ...CommonEnvProperties,
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3002 }),
});

export type AuthConfig = Static<typeof AuthEnvSchema>;

/** Validates the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): AuthConfig {
  return loadConfigFrom(AuthEnvSchema, env, COMMON_CONFIG_RULES);
}

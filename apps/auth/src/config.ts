import { parseBackchannelLogoutAllowedHosts, parseKeyEncryptionKey } from '@foodshare/domain';
import { COMMON_CONFIG_RULES, CommonEnvProperties, loadConfigFrom } from '@foodshare/server-kit';
import { Type, type Static } from 'typebox';

const seconds = (defaultValue: number, description: string) =>
  Type.Integer({ minimum: 1, default: defaultValue, description });

export const AuthEnvSchema = Type.Object({
  ...CommonEnvProperties,
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3002 }),
  /**
   * 32 random bytes (base64 or 64 hex characters) that encrypt the signing keys' private parts
   * at rest and the refresh tokens. Required in production; development generates one.
   */
  KEY_ENCRYPTION_KEY: Type.Optional(Type.String({ minLength: 32 })),
  /** The server-side pepper of client-secret HMACs. Required in production. */
  CLIENT_SECRET_PEPPER: Type.Optional(Type.String({ minLength: 16 })),
  // docs/spec.md §8; shortened only by tests.
  AUTHORIZATION_CODE_TTL_SECONDS: seconds(600, 'Authorization code lifetime'),
  ACCESS_TOKEN_TTL_SECONDS: seconds(3600, 'Access token lifetime'),
  REFRESH_TOKEN_TTL_SECONDS: seconds(30 * 24 * 3600, 'Refresh token lifetime'),
  // RFC 8628 (docs/oauth.md §12): how long a device code and its user code live, and how long
  // the device waits between polls (5 seconds, the RFC's default; shortened only by tests).
  DEVICE_CODE_TTL_SECONDS: seconds(600, 'Device code lifetime'),
  DEVICE_CODE_INTERVAL_SECONDS: seconds(5, 'Device code polling interval'),
  /**
   * User codes typed at the device verification page per client address (IPv6: per /64) and
   * hour before 429: 20^8 codes, so a guesser at this pace needs millennia for one live code.
   */
  DEVICE_USER_CODE_ATTEMPTS_PER_IP_PER_HOUR: Type.Integer({ minimum: 1, default: 30 }),
  /**
   * The same per signed-in account, whatever its address: a guesser holding many addresses (an
   * IPv6 /48 is 65,536 buckets) still guesses at one account's pace.
   */
  DEVICE_USER_CODE_ATTEMPTS_PER_ACCOUNT_PER_HOUR: Type.Integer({ minimum: 1, default: 30 }),
  /**
   * How often an instance re-reads the signing keys, so a rotation reaches it without restart.
   * Fractions allowed: tests shorten it to a fraction of a second. `keys rotate` must delay
   * activation longer than this.
   */
  SIGNING_KEY_REFRESH_SECONDS: Type.Number({
    exclusiveMinimum: 0,
    default: 60,
    description: 'Signing key reload interval',
  }),
  /**
   * Token requests per confidential client and minute before 429 (per-client limit of the
   * checklist), counted after the client proved its secret: only the client can spend it.
   */
  TOKEN_REQUESTS_PER_CLIENT_PER_MINUTE: Type.Integer({ minimum: 1, default: 600 }),
  /**
   * Requests to /oauth/authorize and /login per client address (IPv6: per /64) and minute
   * before 429: each can park an authorization request or check a password.
   */
  INTERACTION_REQUESTS_PER_IP_PER_MINUTE: Type.Integer({ minimum: 1, default: 120 }),
  /**
   * Token requests per public client, client address (IPv6: per /64) and minute before 429. A
   * public client identifies itself by its id alone, so a per-client budget would let anyone
   * spend it and lock every user of the app out; per address, a flood locks out only its sender.
   */
  TOKEN_REQUESTS_PER_PUBLIC_CLIENT_AND_IP_PER_MINUTE: Type.Integer({ minimum: 1, default: 120 }),
  /**
   * Failed client authentications per claimed client_id, client address and minute; past it the
   * token and revocation endpoints answer 429 without checking the secret (secret guessing).
   */
  TOKEN_CLIENT_AUTH_FAILURES_PER_CLIENT_AND_IP_PER_MINUTE: Type.Integer({
    minimum: 1,
    default: 10,
  }),
  /**
   * Back-Channel Logout (docs/oauth.md §9.3): how long one delivery of a logout token may take,
   * how many deliveries are tried, and the pause before the n-th retry (n times this). Bounded,
   * so that a client that does not answer costs nothing but these background attempts.
   */
  BACKCHANNEL_LOGOUT_TIMEOUT_SECONDS: Type.Number({ exclusiveMinimum: 0, maximum: 30, default: 5 }),
  BACKCHANNEL_LOGOUT_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 10, default: 3 }),
  BACKCHANNEL_LOGOUT_RETRY_SECONDS: Type.Number({ minimum: 0, maximum: 300, default: 2 }),
  /** How often the sessions the REST service ended are read, to tell their clients too. */
  BACKCHANNEL_LOGOUT_POLL_SECONDS: Type.Number({ exclusiveMinimum: 0, maximum: 60, default: 2 }),
  /**
   * Hosts (names or IP addresses, separated by commas) a back-channel logout URI may name
   * although they are not public, over http too: a local receiver in development and tests.
   * Empty by default: logout tokens go only to public https hosts (docs/oauth.md §9.4).
   */
  BACKCHANNEL_LOGOUT_ALLOWED_HOSTS: Type.String({ default: '' }),
  /**
   * Client ids (separated by commas) of the resource servers: confidential clients that may
   * introspect the tokens of every client (docs/oauth.md §5.3). Any other client learns only of
   * tokens issued to it or naming it as audience; of the rest it hears `active: false`.
   */
  INTROSPECTION_RESOURCE_SERVERS: Type.String({ default: '' }),
  /**
   * The platform's name in the header and titles of the sign-in pages (docs/oauth.md §2.11):
   * plain text, escaped like all text.
   */
  PLATFORM_NAME: Type.String({ minLength: 1, maxLength: 60, default: 'foodsharing' }),
  /**
   * The platform's page where a user resets a forgotten password, linked from the login page;
   * unset, no link (the REST API has no reset route). https (http only outside production).
   */
  PASSWORD_RESET_URL: Type.Optional(Type.String({ maxLength: 2000 })),
});

export type AuthConfig = Static<typeof AuthEnvSchema>;

/** Production refuses to start without its own keys: a development key in production is a leak. */
function productionSecretsRule(config: AuthConfig): string[] {
  if (config.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if (!config.KEY_ENCRYPTION_KEY) problems.push('KEY_ENCRYPTION_KEY: required in production');
  if (!config.CLIENT_SECRET_PEPPER) problems.push('CLIENT_SECRET_PEPPER: required in production');
  return problems;
}

/** The key-encryption key must be exactly 32 bytes (AES-256-GCM), written as hex or base64. */
function keyEncryptionKeyRule(config: AuthConfig): string[] {
  if (config.KEY_ENCRYPTION_KEY === undefined) return [];
  return parseKeyEncryptionKey(config.KEY_ENCRYPTION_KEY)
    ? []
    : ['KEY_ENCRYPTION_KEY: must be 32 bytes as 64 hex characters or base64'];
}

/** Every exempted back-channel logout host must be a host. */
function backchannelLogoutHostsRule(config: AuthConfig): string[] {
  try {
    parseBackchannelLogoutAllowedHosts(config.BACKCHANNEL_LOGOUT_ALLOWED_HOSTS);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

/** BACKCHANNEL_LOGOUT_ALLOWED_HOSTS as the client rules compare it (checked at load). */
export function backchannelLogoutAllowedHosts(config: AuthConfig): string[] {
  return parseBackchannelLogoutAllowedHosts(config.BACKCHANNEL_LOGOUT_ALLOWED_HOSTS);
}

/** INTROSPECTION_RESOURCE_SERVERS as a list of client ids. */
export function introspectionResourceServers(config: AuthConfig): string[] {
  return config.INTROSPECTION_RESOURCE_SERVERS.split(',')
    .map((clientId) => clientId.trim())
    .filter((clientId) => clientId !== '');
}

/** The reset link leads away from the login page: an absolute https URL, no script. */
function passwordResetUrlRule(config: AuthConfig): string[] {
  const url = config.PASSWORD_RESET_URL;
  if (url === undefined) return [];
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const allowed = config.NODE_ENV === 'production' ? ['https:'] : ['https:', 'http:'];
  if (!parsed || !allowed.includes(parsed.protocol) || /[\s<>"'`]/.test(url)) {
    return [
      config.NODE_ENV === 'production'
        ? 'PASSWORD_RESET_URL: must be an absolute https URL'
        : 'PASSWORD_RESET_URL: must be an absolute https (or http) URL',
    ];
  }
  return [];
}

/** Validates the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): AuthConfig {
  return loadConfigFrom(AuthEnvSchema, env, [
    ...COMMON_CONFIG_RULES,
    productionSecretsRule,
    keyEncryptionKeyRule,
    backchannelLogoutHostsRule,
    passwordResetUrlRule,
  ]);
}

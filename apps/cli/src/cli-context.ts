import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  DEVELOPMENT_CLIENT_SECRET_PEPPER,
  developmentKeyEncryptionKey,
  embeddedDatabase,
  parseBackchannelLogoutAllowedHosts,
  type EmbeddedDatabase,
  openOrm,
  parseKeyEncryptionKey,
  type EntityManager,
  type MikroORM,
} from '@foodshare/domain';

/** The variables the CLI reads; main.ts takes them from process.env. */
export interface CliEnvironment {
  DATABASE_URL?: string | undefined;
  CLIENT_SECRET_PEPPER?: string | undefined;
  NODE_ENV?: string | undefined;
  /** The auth service's key-encryption key (signing keys); `keys rotate` needs the same one. */
  KEY_ENCRYPTION_KEY?: string | undefined;
  /** The auth service's key reload interval: a rotation should activate later than this. */
  SIGNING_KEY_REFRESH_SECONDS?: string | undefined;
  /** The auth service's access-token lifetime: a retired key outlives the tokens it signed. */
  ACCESS_TOKEN_TTL_SECONDS?: string | undefined;
  /** The auth service's refresh-token lifetime: a client's grant cutoff outlives its tokens. */
  REFRESH_TOKEN_TTL_SECONDS?: string | undefined;
  /** Hosts a back-channel logout URI may name although not public, as the auth service reads them. */
  BACKCHANNEL_LOGOUT_ALLOWED_HOSTS?: string | undefined;
  /** The port of `pnpm start`'s embedded PostgreSQL, used when DATABASE_URL is not set. */
  EMBEDDED_POSTGRES_PORT?: string | undefined;
  /** The services' Redis: sessions and grants that some commands end live there. */
  REDIS_URL?: string | undefined;
  REDIS_KEY_PREFIX?: string | undefined;
  /** Redis behind Sentinel, as the services read them (docs/deploy.md §3). */
  REDIS_SENTINELS?: string | undefined;
  REDIS_SENTINEL_MASTER?: string | undefined;
  REDIS_SENTINEL_PASSWORD?: string | undefined;
}

// The auth service's defaults (apps/auth config), for a CLI run without its environment.
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3600;
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export function secondsFromEnv(
  env: CliEnvironment,
  name: 'SIGNING_KEY_REFRESH_SECONDS' | 'ACCESS_TOKEN_TTL_SECONDS' | 'REFRESH_TOKEN_TTL_SECONDS',
  fallback: number,
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new CliError('INVALID_INPUT', `${name} must be a positive number of seconds.`);
  }
  return value;
}

/**
 * BACKCHANNEL_LOGOUT_ALLOWED_HOSTS, read as the auth service reads it: the command line applies
 * the same rules to a client's back-channel logout URI as the admin page.
 */
export function backchannelLogoutAllowedHostsOf(env: CliEnvironment): string[] {
  try {
    return parseBackchannelLogoutAllowedHosts(env.BACKCHANNEL_LOGOUT_ALLOWED_HOSTS);
  } catch (error) {
    throw new CliError('INVALID_INPUT', (error as Error).message);
  }
}

export type CliErrorCode =
  | 'MISSING_DATABASE_URL'
  | 'EMBEDDED_DATABASE_NOT_RUNNING'
  | 'STATE_STORE_UNAVAILABLE'
  | 'MISSING_CLIENT_SECRET_PEPPER'
  | 'MISSING_KEY_ENCRYPTION_KEY'
  | 'INVALID_INPUT'
  | 'DATABASE_NOT_EMPTY'
  | 'REFUSED_IN_PRODUCTION'
  | 'RETIRE_AFTER_TOO_SHORT';

/** A refusal of the command line itself (configuration, arguments), as opposed to the domain. */
export class CliError extends Error {
  readonly code: CliErrorCode;

  constructor(code: CliErrorCode, message: string) {
    super(message);
    this.name = 'CliError';
    this.code = code;
  }
}

export function isProduction(env: CliEnvironment): boolean {
  return env.NODE_ENV === 'production';
}

/** The database a command works on; `embedded` when it is the one `pnpm start` runs. */
export interface DatabaseChoice {
  url: string;
  embedded: EmbeddedDatabase | null;
}

/**
 * DATABASE_URL, or else, outside production, the embedded PostgreSQL of `pnpm start` when this
 * checkout has one (`.data/postgres`), so that `pnpm cli` works on the database `pnpm start`
 * serves without any set-up. `root` is the checkout's (tests give their own).
 */
export function chooseDatabase(env: CliEnvironment, root?: string): DatabaseChoice {
  const url = env.DATABASE_URL?.trim();
  if (url) return { url, embedded: null };
  if (!isProduction(env)) {
    let embedded: EmbeddedDatabase;
    try {
      embedded = embeddedDatabase(env, root);
    } catch (error) {
      throw new CliError('INVALID_INPUT', (error as Error).message);
    }
    if (existsSync(path.join(embedded.dataDir, 'PG_VERSION'))) {
      return { url: embedded.url, embedded };
    }
  }
  throw new CliError(
    'MISSING_DATABASE_URL',
    'DATABASE_URL is not set and there is no embedded database of `pnpm start` (.data/postgres): ' +
      'set DATABASE_URL=postgresql://user@host:5432/db, or run `pnpm start` once.',
  );
}

/** The line that tells the operator which database a command uses when it was not named. */
export function databaseNotice(choice: DatabaseChoice): string | null {
  const { embedded } = choice;
  if (!embedded) return null;
  return (
    `DATABASE_URL is not set: using the embedded PostgreSQL of \`pnpm start\` ` +
    `(postgres@127.0.0.1:${embedded.port}/${embedded.database}, data in ${embedded.dataDir}).`
  );
}

/** The embedded database answers only while `pnpm start` runs: say so in one line. */
async function requireRunning(orm: MikroORM, embedded: EmbeddedDatabase): Promise<void> {
  try {
    await orm.em.getConnection().execute('select 1');
  } catch (error) {
    throw new CliError(
      'EMBEDDED_DATABASE_NOT_RUNNING',
      `The embedded PostgreSQL of \`pnpm start\` does not answer on 127.0.0.1:${embedded.port} ` +
        `(${(error as Error).message.split('\n')[0]}): start it with \`pnpm start\`, or set DATABASE_URL.`,
    );
  }
}

/**
 * The pepper of client secret hashes. It must be the one the auth service runs with, or no
 * secret will verify; only a development machine may fall back to the development pepper.
 */
export function clientSecretPepper(env: CliEnvironment): string {
  const pepper = env.CLIENT_SECRET_PEPPER;
  if (pepper) return pepper;
  if (isProduction(env)) {
    throw new CliError(
      'MISSING_CLIENT_SECRET_PEPPER',
      'CLIENT_SECRET_PEPPER is not set. In production it must be the pepper the auth service uses.',
    );
  }
  return DEVELOPMENT_CLIENT_SECRET_PEPPER;
}

export interface ResolvedKeyEncryptionKey {
  key: Uint8Array;
  /** Set when the key is the checkout's development key: one line for the operator. */
  warning: string | null;
}

/**
 * The key that encrypts the signing keys' private parts. It must be the auth service's, or the
 * service cannot use the keys this CLI creates; only outside production does an unset one fall
 * back to the checkout's development key (generated once into a git-ignored file that the auth
 * service and `pnpm start` of the same checkout share).
 */
export function keyEncryptionKey(env: CliEnvironment): ResolvedKeyEncryptionKey {
  const value = env.KEY_ENCRYPTION_KEY?.trim();
  if (!value) {
    if (isProduction(env)) {
      throw new CliError(
        'MISSING_KEY_ENCRYPTION_KEY',
        'KEY_ENCRYPTION_KEY is not set. In production it must be the key the auth service uses.',
      );
    }
    const development = developmentKeyEncryptionKey();
    return {
      key: development.key,
      warning: `KEY_ENCRYPTION_KEY is not set: using the development key of this checkout (${development.file}).`,
    };
  }
  const key = parseKeyEncryptionKey(value);
  if (!key) {
    throw new CliError(
      'INVALID_INPUT',
      'KEY_ENCRYPTION_KEY must be 32 bytes as 64 hex characters or base64.',
    );
  }
  return { key, warning: null };
}

export async function withOrm<T>(
  env: CliEnvironment,
  action: (orm: MikroORM) => Promise<T>,
  root?: string,
): Promise<T> {
  const { url, embedded } = chooseDatabase(env, root);
  // Two connections: ending a client's grants writes its ledger beside the change's transaction.
  const orm = await openOrm({ url, poolSize: 2 });
  try {
    if (embedded) await requireRunning(orm, embedded);
    return await action(orm);
  } finally {
    await orm.close();
  }
}

export function withEntityManager<T>(
  env: CliEnvironment,
  action: (em: EntityManager) => Promise<T>,
): Promise<T> {
  return withOrm(env, (orm) => action(orm.em.fork()));
}

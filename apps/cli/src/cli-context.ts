import {
  DEVELOPMENT_CLIENT_SECRET_PEPPER,
  openOrm,
  type EntityManager,
  type MikroORM,
} from '@foodshare/domain';

/** The variables the CLI reads; main.ts takes them from process.env. */
export interface CliEnvironment {
  DATABASE_URL?: string | undefined;
  CLIENT_SECRET_PEPPER?: string | undefined;
  NODE_ENV?: string | undefined;
}

export type CliErrorCode =
  | 'MISSING_DATABASE_URL'
  | 'MISSING_CLIENT_SECRET_PEPPER'
  | 'INVALID_INPUT'
  | 'DATABASE_NOT_EMPTY'
  | 'REFUSED_IN_PRODUCTION';

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

export function requireDatabaseUrl(env: CliEnvironment): string {
  const url = env.DATABASE_URL?.trim();
  if (!url) {
    throw new CliError(
      'MISSING_DATABASE_URL',
      'DATABASE_URL is not set. Point it at the PostgreSQL database, for example ' +
        'DATABASE_URL=postgresql://postgres@127.0.0.1:5432/foodshare',
    );
  }
  return url;
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

export async function withOrm<T>(
  env: CliEnvironment,
  action: (orm: MikroORM) => Promise<T>,
): Promise<T> {
  const orm = await openOrm({ url: requireDatabaseUrl(env), poolSize: 1 });
  try {
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

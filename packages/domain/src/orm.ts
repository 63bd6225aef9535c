import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM, PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import { entities } from './entities/index.ts';
import { migrations } from './migrations/index.ts';

export type { EntityManager, MikroORM } from '@mikro-orm/postgresql';

export interface OrmConfig {
  /** A `postgresql://` connection URL. */
  url: string;
  /** Log every query (MikroORM's `debug`). */
  debug?: boolean;
  /** Upper bound of the connection pool of this process. */
  poolSize?: number;
  /** Called with MikroORM's line for every query sent, e.g. to count queries per request. */
  onQuery?: (line: string) => void;
}

const DEFAULT_POOL_SIZE = 10;

export function ormOptions({
  url,
  debug = false,
  poolSize = DEFAULT_POOL_SIZE,
  onQuery,
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
    ...(onQuery ? { debug: ['query' as const], logger: onQuery } : { debug }),
    colors: false,
    // The schema belongs to the migrations: the ORM never creates databases or syncs tables.
    ensureDatabase: false,
    // Each request works in its own fork (DESIGN.md 3); touching the global EntityManager is a bug.
    allowGlobalContext: false,
  });
}

export function openOrm(config: OrmConfig): Promise<MikroORM> {
  return MikroORM.init(ormOptions(config));
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

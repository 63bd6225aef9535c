import { MikroORM } from '@mikro-orm/postgresql';
import { migrateToLatest, ormOptions } from '../db/orm.ts';
import { describe, expect, it } from '../test-support/fixtures.ts';

/** The SQL that would bring the database in line with the entity definitions, minus the session preamble. */
async function schemaDrift(orm: MikroORM): Promise<string> {
  const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false });
  return sql
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('set names'))
    .join('\n');
}

/**
 * Columns, constraints and indexes of one PostgreSQL schema as the catalog states them, with the
 * schema name taken out so that two schemas can be compared.
 */
async function catalog(orm: MikroORM, schema: string) {
  const connection = orm.em.getConnection();
  const unqualify = (definition: string) => definition.replaceAll(`${schema}.`, '');
  const columns = await connection.execute<Record<string, unknown>[]>(
    `select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type,
            a.attnotnull as not_null, a.attidentity as identity, pg_get_expr(d.adbin, d.adrelid) as default
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname = ? and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
        and c.relname <> 'mikro_orm_migrations'
      order by 1, 2`,
    [schema],
  );
  const constraints = await connection.execute<
    { table: string; name: string; definition: string }[]
  >(
    `select c.relname as table, con.conname as name, pg_get_constraintdef(con.oid) as definition
       from pg_constraint con
       join pg_class c on c.oid = con.conrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ? and c.relname <> 'mikro_orm_migrations'
      order by 1, 2`,
    [schema],
  );
  const indexes = await connection.execute<{ table: string; name: string; definition: string }[]>(
    `select tablename as table, indexname as name, indexdef as definition
       from pg_indexes
      where schemaname = ? and tablename <> 'mikro_orm_migrations'
      order by 1, 2`,
    [schema],
  );
  return {
    columns,
    constraints: constraints.map((row) => ({ ...row, definition: unqualify(row.definition) })),
    indexes: indexes.map((row) => ({ ...row, definition: unqualify(row.definition) })),
  };
}

// The template behind this file's copy was migrated from an empty database by the global setup.
describe('migrations', () => {
  it('leave nothing for the schema diff of the entities to do', async ({ orm }) => {
    expect(await schemaDrift(orm)).toBe('');
  });

  // The diff above is blind to some differences (timestamp vs timestamptz, int[] vs bigint[]),
  // so the migrated schema is also compared with the DDL the entities generate, catalog entry by entry.
  it('create exactly the tables, columns, constraints and indexes the entities generate', async ({
    orm,
    databaseUrl,
  }) => {
    const expected = 'entities_ddl';
    const reference = await MikroORM.init({
      ...ormOptions({ url: databaseUrl, poolSize: 1 }),
      schema: expected,
    });
    try {
      await reference.schema.create();
      const generated = await catalog(orm, expected);
      expect(generated.columns.length).toBeGreaterThan(0);
      expect(await catalog(orm, 'public')).toEqual(generated);
    } finally {
      await reference.schema.execute(`drop schema if exists ${expected} cascade`);
      await reference.close();
    }
  });

  it('are all applied, and applying again changes nothing', async ({ orm }) => {
    expect(await orm.migrator.getPending()).toEqual([]);
    await migrateToLatest(orm);
    expect(await schemaDrift(orm)).toBe('');
  });

  it('can be rolled back to an empty database and applied again', async ({ orm }) => {
    await orm.migrator.down({ to: 0 });
    const [tables] = await orm.em
      .getConnection()
      .execute<{ count: string }[]>(
        `select count(*) from information_schema.tables where table_schema = 'public' and table_name <> 'mikro_orm_migrations'`,
      );
    expect(tables?.count).toBe('0');

    await migrateToLatest(orm);
    expect(await schemaDrift(orm)).toBe('');
  });
});

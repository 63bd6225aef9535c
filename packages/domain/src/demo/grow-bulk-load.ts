import type { EntityManager } from '../db/orm.ts';

interface Definition {
  table: string;
  name: string;
  definition: string;
}

/**
 * Runs a bulk insert into `tables` with their foreign keys and plain indexes set aside, then
 * puts them back: one sorted index build and one set-based foreign-key check per constraint
 * instead of millions of row-at-a-time ones. Primary keys and unique constraints stay, so
 * duplicates still fail at once. Inside the caller's transaction: if anything fails, the
 * constraints and indexes are back as they were; if a restored foreign key does not hold, the
 * whole run fails.
 */
export async function withBulkLoad<T>(
  tx: EntityManager,
  tables: readonly string[],
  load: () => Promise<T>,
): Promise<T> {
  const names = tables.map((table) => `'${table}'`).join(', ');
  const foreignKeys = await tx.execute<Definition[]>(
    `select c.conrelid::regclass::text as table, c.conname as name,
            pg_get_constraintdef(c.oid) as definition
       from pg_constraint c
      where c.contype = 'f' and c.conrelid::regclass::text in (${names})
      order by 1, 2`,
  );
  const indexes = await tx.execute<Definition[]>(
    `select i.tablename as table, i.indexname as name, i.indexdef as definition
       from pg_indexes i
      where i.schemaname = current_schema() and i.tablename in (${names})
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)
      order by 1, 2`,
  );
  for (const fk of foreignKeys) {
    await tx.execute(`alter table "${fk.table}" drop constraint "${fk.name}"`);
  }
  for (const index of indexes) await tx.execute(`drop index "${index.name}"`);

  const result = await load();

  await tx.execute(`set local maintenance_work_mem = '256MB'`);
  for (const index of indexes) await tx.execute(index.definition);
  for (const fk of foreignKeys) {
    await tx.execute(`alter table "${fk.table}" add constraint "${fk.name}" ${fk.definition}`);
  }
  return result;
}

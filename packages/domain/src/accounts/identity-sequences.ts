import type { EntityManager } from '../db/orm.ts';

/**
 * After rows were inserted with explicit ids (the well-known units, seeds), moves the table's
 * identity sequence past the highest id, so that the next generated id does not collide.
 * Never moves it backwards: ids of deleted rows are not handed out again.
 */
export async function syncIdentitySequence(em: EntityManager, table: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`Not a table name: ${table}`);
  const [row] = await em.execute<{ sequence: string | null }[]>(
    `select pg_get_serial_sequence(?, 'id') as sequence`,
    [table],
  );
  const sequence = row?.sequence;
  if (!sequence) throw new Error(`Table ${table} has no identity column "id"`);
  // With is_called = true the next value is max + 1; a fresh sequence (is_called = false) still
  // hands out last_value itself, so it counts as one below it.
  await em.execute(
    `select setval(?::regclass, greatest(
        (select coalesce(max(id), 0) from "${table}"),
        (select case when is_called then last_value else last_value - 1 end from ${sequence})
      ), true)
      where (select coalesce(max(id), 0) from "${table}") > 0`,
    [sequence],
  );
}

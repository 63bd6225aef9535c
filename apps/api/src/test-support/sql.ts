import type { MikroORM } from '@foodshare/domain';

export type Rows = Record<string, unknown>[];

/** SQL with `?` placeholders, each call on a fresh EntityManager fork, outside any request. */
export type Sql = <T = Rows>(query: string, params?: unknown[]) => Promise<T>;

/** SQL through the app's own ORM: a test opens no second pool of its own. */
export function sqlThrough(orm: MikroORM): Sql {
  return async <T>(query: string, params: unknown[] = []) =>
    (await orm.em.fork().execute(query, params)) as T;
}

/**
 * Waits until `count` statements of this test database wait for a lock: a test that holds a
 * row knows then that the requests it sent have come to wait for it.
 */
export async function lockWaiters(sql: Sql, count: number): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const rows = await sql<{ n: number }[]>(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (rows[0]!.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} statements came to wait for the lock`);
}

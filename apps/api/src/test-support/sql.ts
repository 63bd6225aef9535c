import type { MikroORM } from '@foodshare/domain';

export type Rows = Record<string, unknown>[];

/** SQL with `?` placeholders, each call on a fresh EntityManager fork, outside any request. */
export type Sql = <T = Rows>(query: string, params?: unknown[]) => Promise<T>;

/** SQL through the app's own ORM: a test opens no second pool of its own. */
export function sqlThrough(orm: MikroORM): Sql {
  return async <T>(query: string, params: unknown[] = []) =>
    (await orm.em.fork().execute(query, params)) as T;
}

import { expect } from 'vitest';
import type { MikroORM } from '@foodshare/domain';

/** Query strings every paged list refuses with 400 (limit 1..1000, offset >= 0, integers). */
export const INVALID_PAGE_QUERIES: readonly (readonly [string])[] = [
  ['limit=0'],
  ['limit=1001'],
  ['limit=-1'],
  ['offset=-1'],
  ['limit=1e3'],
  ['limit=1.5'],
  ['offset=0x10'],
  ['limit=abc'],
];

/** Query strings at the edges that every paged list accepts. */
export const VALID_PAGE_QUERIES: readonly (readonly [string])[] = [
  ['limit=1'],
  ['limit=1000'],
  ['offset=0'],
  ['limit=1000&offset=2147483647'],
];

/** `count` new verified foodsavers in one statement, by id; their first names are `tag`. */
export async function createManyUsers(
  orm: MikroORM,
  tag: string,
  count: number,
): Promise<number[]> {
  const rows = await orm.em.fork().execute<{ id: number }[]>(
    `insert into users (first_name, last_name, email, password_hash, role, verified)
     select ?, 'Viele', ? || n || '@paging.example.org', 'x', 1, true
       from generate_series(1, ?) as n
     returning id`,
    [tag, tag.toLowerCase(), count],
  );
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/**
 * Walks a paged list of 101 items whose full, ordered ids are `all`: the default page of 100,
 * a limit, a page across the default's end, the largest limit, and an empty page past the end
 * (empty, not 404: the list's owner exists). `page` fetches one query string's ids.
 */
export async function expectPagesOf(
  all: readonly number[],
  page: (query: string) => Promise<number[]>,
): Promise<void> {
  if (all.length !== 101) throw new Error('expectPagesOf needs 101 items');
  expect(await page('')).toEqual(all.slice(0, 100));
  expect(await page('limit=2')).toEqual(all.slice(0, 2));
  expect(await page('limit=2&offset=99')).toEqual(all.slice(99, 101));
  expect(await page('limit=1000')).toEqual(all);
  expect(await page('offset=101')).toEqual([]);
}

import type { SearchIndex } from '@foodshare/schemas';
import { countQueries } from '@foodshare/server-kit/test-support';
import type { ApiApp } from '../../app.ts';
import { describe, expect, it, type SignIn, type UserClient } from '../../test-support/fixtures.ts';
import { SEARCH_INDEX_CACHE_MS, SearchIndexCache } from './search-index-cache.ts';
import { SEARCH_INDEX_SQL, SEARCH_INDEX_STATEMENT_NAME } from './search-index.sql.ts';

const MUSTERSTADT = 3;

type Sql = <T extends object[] = object[]>(text: string, params?: unknown[]) => Promise<T>;

async function versionNow(sql: Sql): Promise<bigint> {
  const [row] = await sql<{ version: string }[]>(
    'select coalesce(sum(version), 0)::text as version from search_index_versions',
  );
  return BigInt(row!.version);
}

/** The user's client and the first answer, after which the user's index is kept. */
async function keptIndexOf(user: number, as: SignIn) {
  const client = await as(user);
  const first = await client.get('/api/search/index');
  expect(first.statusCode).toBe(200);
  return { client, first };
}

/** The client's next request for its index, and the statements it sent. */
function repeat(app: ApiApp, client: UserClient) {
  return countQueries(app.orm, () => client.get('/api/search/index'));
}

describe('the search index kept with the version of its data (docs/design.md §3.12)', () => {
  it('answers a repeat from the kept index with one query, same bytes, same tag', async ({
    app,
    as,
    factory,
  }) => {
    const { client, first } = await keptIndexOf(await factory.user({ role: 1 }), as);
    const { result: again, queries } = await repeat(app, client);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    // The data's version only: no role look-up, no index statement.
    expect(queries).toBe(1);
    const unchanged = await client.get('/api/search/index', {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
  });

  it('serves an index kept by release 0.1.0, whose first line named no format', async ({
    app,
    as,
    factory,
  }) => {
    const user = await factory.user({ role: 1 });
    const { client, first } = await keptIndexOf(user, as);
    const cache = new SearchIndexCache(app.kv, SEARCH_INDEX_STATEMENT_NAME);
    const kept = await cache.get(user);
    const key = `search-index:${SEARCH_INDEX_STATEMENT_NAME}:${user}`;
    const [header = '', ...body] = (await app.kv.get(key))!.split('\n');
    expect(header.split(' ')).toHaveLength(4);
    await app.kv.set(
      key,
      [header.split(' ').slice(0, 3).join(' '), ...body].join('\n'),
      SEARCH_INDEX_CACHE_MS,
    );
    expect(await cache.get(user)).toEqual(kept);
    const { result, queries } = await repeat(app, client);
    expect(result.body).toBe(first.body);
    expect(queries).toBe(1);
  });

  it('never serves an index kept for another role than the reader has now', async ({
    app,
    as,
    factory,
  }) => {
    const user = await factory.user({ role: 1 });
    const { client, first } = await keptIndexOf(user, as);
    const cache = new SearchIndexCache(app.kv, SEARCH_INDEX_STATEMENT_NAME);
    const kept = await cache.get(user);
    expect(kept?.builtFor).toBe('1:true');
    // As a role changed between reading the role and building the index leaves it: the
    // current version, built for the role before.
    await cache.put(user, { ...kept!, builtFor: '4:true', etag: '"stale"', body: '{}' });
    const { result, queries } = await repeat(app, client);
    expect(result.body).toBe(first.body);
    // The version row with the account, then the index built afresh.
    expect(queries).toBe(2);
  });

  it('rebuilds the index after a write to a table it reads', async ({ as, factory, sql }) => {
    const user = await factory.user({ role: 1 });
    const region = await factory.region();
    await factory.addMember(region, user);
    const client = await as(user);
    const before = (await client.get('/api/search/index')).json<SearchIndex>();
    expect(before.regions.map((r) => r.id)).toContain(region);
    await sql('update regions set name = ? where id = ?', ['Umbenannt', region]);
    const after = (await client.get('/api/search/index')).json<SearchIndex>();
    expect(after.regions.find((r) => r.id === region)?.name).toBe('Umbenannt');
  });

  it('refuses a deactivated account even while its index is kept', async ({ as, factory, sql }) => {
    const user = await factory.user({ role: 1 });
    const client = await as(user);
    expect((await client.get('/api/search/index')).statusCode).toBe(200);
    await sql('update users set activated = false where id = ?', [user]);
    expect((await client.get('/api/search/index')).statusCode).toBe(401);
  });

  it('has the version trigger on every table the index statement reads', async ({ sql }) => {
    const plan = await sql<{ 'QUERY PLAN': unknown }[]>(
      `explain (format json) ${SEARCH_INDEX_SQL}`,
      [1, false, 'example.org'],
    );
    const tables = new Set<string>();
    JSON.stringify(plan, (key, value: unknown) => {
      if (key === 'Relation Name' && typeof value === 'string') tables.add(value);
      return value;
    });
    expect(tables).toContain('regions');
    expect(tables).toContain('messages');
    const triggered = await sql<{ table: string }[]>(
      `select c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where t.tgname = 'search_index_version'`,
    );
    const withTrigger = new Set(triggered.map((row) => row.table));
    // search_index_versions is the version itself.
    const untracked = [...tables].filter(
      (t) => !withTrigger.has(t) && t !== 'search_index_versions',
    );
    expect(untracked).toEqual([]);
  });

  it('raises the version once per transaction, however many rows it writes', async ({ sql }) => {
    const start = await versionNow(sql);
    await sql(
      `do $$ begin for i in 1..50 loop
         update regions set name = name where id = ${MUSTERSTADT};
       end loop; end $$`,
    );
    expect(await versionNow(sql)).toBe(start + 1n);
  });

  it('raises the version for a change the index shows, not for a login', async ({
    factory,
    sql,
  }) => {
    const user = await factory.user({ role: 1 });
    const start = await versionNow(sql);
    await sql('update users set last_login_at = now() where id = ?', [user]);
    expect(await versionNow(sql)).toBe(start);
    await sql('update users set first_name = ? where id = ?', ['Neu', user]);
    expect(await versionNow(sql)).toBeGreaterThan(start);
    const renamed = await versionNow(sql);
    await sql('update regions set name = name where id = ?', [MUSTERSTADT]);
    expect(await versionNow(sql)).toBe(renamed + 1n);
  });

  it('folds the counts of gone connections into one row, keeping the sum', async ({ sql }) => {
    // Counts of two backends that no longer exist (no process has such an id).
    await sql(
      `insert into search_index_versions (backend, version) values (-1, 5), (-2, 7)
       on conflict (backend) do update set version = excluded.version`,
    );
    const start = await versionNow(sql);
    // A thousand writing transactions (a DO block may commit between its statements): each
    // raises the version once and folds with a chance of one in a hundred.
    await sql(
      `do $$ begin for i in 1..1000 loop
         update regions set name = name where id = ${MUSTERSTADT};
         commit;
       end loop; end $$`,
    );
    expect(await versionNow(sql)).toBe(start + 1000n);
    const gone = await sql('select backend from search_index_versions where backend < 0');
    expect(gone).toEqual([]);
  });
});

import { describe, expect, ids, it, type Sql, test } from './test-support/fixtures.ts';
import { explainQuery as explain, type PlanNode } from './test-support/query-plans.ts';
import { storeFactsQuery } from './shared/store-facts.repository.ts';
import { teamRequestsQuery } from './features/stores/stores.sql.ts';
import { storeLogPageQuery } from './features/store-log/store-log.sql.ts';
import type { StoreLogAction } from '@foodshare/domain';

const LOG_ROWS = 1_000_000;
const STORES = 1000;
const USERS = 50_000;
const MEMBERSHIPS = 200_000;
const DAY = 24 * 60 * 60 * 1000;
/** How a table is read when an index serves the query. */
const INDEX_READS = ['Index Scan', 'Index Only Scan', 'Bitmap Heap Scan'];

// The bulk fill below runs statements of many seconds (a million rows, the users' row triggers),
// far beyond the bound a request's statement has in the test app.
test.override('appEnv', { scope: 'file' }, { DATABASE_STATEMENT_TIMEOUT_MS: '600000' });

/**
 * The index plan of the very SQL the routes run (their query builders), on a store log of a
 * million entries over a thousand stores and 200,000 team memberships. No timing: the plan is
 * what stays true on a slower machine.
 */
describe('the store queries use indexes on a million log entries', () => {
  let busyStore: number;
  let crowdedStore: number;

  const scansOf = (plan: PlanNode[], table: string) =>
    plan.filter((node) => node['Relation Name'] === table);
  const indexNames = (plan: PlanNode[]) =>
    plan.flatMap((node) => (node['Index Name'] ? [node['Index Name']] : []));

  /**
   * Fills `table` fast enough for a test: unlogged (this database is thrown away), its foreign
   * keys and secondary indexes dropped during the insert and then recreated from their own
   * catalog definitions, so the plans below run on exactly the migrated indexes.
   */
  async function bulkLoad(
    sql: Sql,
    table: string,
    insert: string,
    params: unknown[],
  ): Promise<void> {
    const indexes = await sql<{ indexdef: string; indexname: string }[]>(
      `select indexname, indexdef from pg_indexes
        where schemaname = current_schema() and tablename = ?
          and indexname not in (select conname from pg_constraint where conrelid = ?::regclass)`,
      [table, table],
    );
    const keys = await sql<{ conname: string; def: string }[]>(
      `select conname, pg_get_constraintdef(oid) as def from pg_constraint
        where conrelid = ?::regclass and contype = 'f'`,
      [table],
    );
    await sql(`alter table ${table} set unlogged`);
    for (const key of keys) await sql(`alter table ${table} drop constraint ${key.conname}`);
    for (const index of indexes) await sql(`drop index ${index.indexname}`);
    await sql(insert, params);
    for (const index of indexes) await sql(index.indexdef);
    for (const key of keys) {
      await sql(`alter table ${table} add constraint ${key.conname} ${key.def}`);
    }
  }

  test.beforeAll(async ({ sql }) => {
    await sql(
      `insert into stores (name, region_id, latitude, longitude)
       select 'Laden ' || g, 3, 52 + g / 10000.0, 9 + g / 10000.0 from generate_series(0, ? - 1) g`,
      [STORES],
    );
    await sql(
      `insert into users (first_name, last_name, email, password_hash, role, latitude, longitude)
       select 'Person ' || g, 'Test', 'person' || g || '@explain.example.org', 'x', 1,
              case when g % 7 = 0 then null else 52 + g / 100000.0 end,
              case when g % 7 = 0 then null else 9.7 end
         from generate_series(0, ? - 1) g`,
      [USERS],
    );
    // Identity ids of one insert are consecutive: series number n is row first + n.
    const [first] = await sql<{ store: number; user: number }[]>(
      `select (select min(id) from stores where name like 'Laden %') as store,
              (select min(id) from users where email like '%@explain.example.org') as user`,
    );
    const { store, user } = first!;
    // Each user belongs or applies to four stores: 200 people per store, 20 of them pending.
    await bulkLoad(
      sql,
      'store_team_memberships',
      `insert into store_team_memberships (store_id, user_id, status, applied_at, joined_at)
       select ? + (g % 4) * (? / 4) + (g / 4) % (? / 4), ? + g / 4,
              case when (g / ?) % 10 = 0 then 0 else 1 end,
              now() - (g % 300) * interval '1 day',
              case when (g / ?) % 10 = 0 then null else now() - (g % 200) * interval '1 day' end
         from generate_series(0, ? - 1) g`,
      [store, STORES, STORES, user, STORES, STORES, MEMBERSHIPS],
    );
    // A thousand entries per store over 13 months, every action type in every store.
    await bulkLoad(
      sql,
      'store_log_entries',
      `insert into store_log_entries (store_id, action_type, actor_id, target_id, performed_at)
       select ? + g % ?, 1 + (g / ?) % 20, ? + g % ?, ? + (g * 7) % ?,
              now() - (g % 397) * interval '1 day' - (g % 86399) * interval '1 second'
         from generate_series(0, ? - 1) g`,
      [store, STORES, STORES, user, USERS, user, USERS, LOG_ROWS],
    );
    // One store that people queue for, as the demo store of the bench's large data: 2,000
    // pending requests, of which a page must not sort all.
    crowdedStore = store + 1;
    await sql(
      `insert into store_team_memberships (store_id, user_id, status, applied_at)
       select ?, ? + g, 0, now() - g * interval '1 hour' from generate_series(0, 1999) g
       on conflict do nothing`,
      [crowdedStore, user],
    );
    await sql('analyze stores, users, store_team_memberships, store_log_entries');
    busyStore = store + STORES / 2;
  }, 120_000);

  it('holds a million log entries and 200,000 team memberships', async ({ sql }) => {
    const [counts] = await sql<{ log: string; team: string; busy: string }[]>(
      `select (select count(*) from store_log_entries) as log,
              (select count(*) from store_team_memberships) as team,
              (select count(*) from store_log_entries where store_id = ?) as busy`,
      [busyStore],
    );
    expect(Number(counts!.busy)).toBe(LOG_ROWS / STORES);
    expect(Number(counts!.log)).toBeGreaterThanOrEqual(LOG_ROWS);
    expect(Number(counts!.team)).toBeGreaterThanOrEqual(MEMBERSHIPS);
  });

  const now = Date.now();
  const window = { from: new Date(now - 180 * DAY), to: new Date(now) };
  const all = Array.from({ length: 20 }, (_, i) => (i + 1) as StoreLogAction);

  const pages: [why: string, actions: StoreLogAction[], limit: number, offset: number][] = [
    ['every action type, first page', all, 100, 0],
    ['every action type, a deep page', all, 1000, 200],
    ['one action type', [3], 100, 0],
    ['three action types', [1, 2, 3], 1000, 0],
  ];

  it.for(pages)(
    'the store log page (%s) reads store_log_entries through its indexes',
    async ([_why, actions, limit, offset], { sql }) => {
      const plan = await explain(
        sql,
        storeLogPageQuery({ storeId: busyStore, ...window, actionTypes: actions, limit, offset }),
      );
      expect(plan.filter((node) => node['Node Type'] === 'Seq Scan')).toEqual([]);
      const log = scansOf(plan, 'store_log_entries');
      expect(log.length).toBeGreaterThan(0);
      for (const node of log) expect(INDEX_READS).toContain(node['Node Type']);
      const logIndexes = indexNames(plan).filter((name) => name.startsWith('store_log_'));
      expect(logIndexes).not.toEqual([]);
      for (const name of logIndexes) {
        expect(name).toMatch(
          /^store_log_entries_store_id_(performed_at_id|action_type_performed_at)_index$/,
        );
      }
    },
  );

  it('a page of team requests comes in order from the (store_id, status, applied_at) index', async ({
    sql,
  }) => {
    const plan = await explain(sql, teamRequestsQuery(crowdedStore));
    expect(plan.filter((node) => node['Node Type'] === 'Seq Scan')).toEqual([]);
    // Newest first straight from the index: no sort of all the store's requests for one page.
    expect(plan.filter((node) => String(node['Node Type']).endsWith('Sort'))).toEqual([]);
    for (const node of scansOf(plan, 'store_team_memberships')) {
      expect(INDEX_READS).toContain(node['Node Type']);
    }
    expect(indexNames(plan)).toContain(
      'store_team_memberships_store_id_status_applied_at_user_id_index',
    );
  });

  it('the permission facts read stores and team memberships by key', async ({ sql }) => {
    const manager = await sql<{ user_id: number }[]>(
      'select user_id from store_team_memberships where store_id = ? limit 1',
      [busyStore],
    );
    const plan = await explain(sql, storeFactsQuery(manager[0]!.user_id, busyStore));
    for (const table of ['stores', 'store_team_memberships']) {
      const reads = scansOf(plan, table);
      expect(reads.length).toBeGreaterThan(0);
      for (const node of reads) expect(INDEX_READS).toContain(node['Node Type']);
    }
  });

  it('the same queries still answer for the demo store', async ({ sql }) => {
    const page = { storeId: ids.storeId, ...window, actionTypes: all, limit: 100, offset: 0 };
    const log = storeLogPageQuery(page);
    expect(await sql<object[]>(log.sql, log.params)).toHaveLength(8);
    const requests = teamRequestsQuery(busyStore);
    expect(await sql<object[]>(requests.sql, requests.params)).toHaveLength(
      MEMBERSHIPS / STORES / 10,
    );
  });
});

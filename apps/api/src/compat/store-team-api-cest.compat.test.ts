import type { Sql } from '../test-support/fixtures.ts';
import { describe, expect, it, test } from './fixtures.ts';
import { platformRequest } from './platform-client.ts';

/**
 * tests/Api/StoreTeamApiCest.php of the platform, the scenario whose actors decide who may run
 * a store: canOnlySeeStoreInternalsIfAllowed. Its `/permissions` check says the store's
 * coordination (BeKo) may see the store log; here the same actors read the store log and the
 * team requests, which the platform grants to whoever may edit the store.
 */
describe('StoreTeamApiCest', () => {
  const people: Record<string, number> = {};
  let regionId = 0;
  let storeId = 0;

  async function createUser(sql: Sql, tag: string, role: number): Promise<number> {
    const rows = await sql<{ id: number }[]>(
      `insert into users (first_name, last_name, email, password_hash, role, verified,
                          home_region_id)
       values (?, 'Cest', ?, 'x', ?, true, ?) returning id`,
      [tag, `${tag}@store-team-cest.example.org`, role, regionId],
    );
    return rows[0]!.id;
  }

  /** createBeKo(): a stores-coordination group under the region, with its own admin. */
  async function createBeKo(sql: Sql): Promise<number> {
    const group = await sql<{ id: number }[]>(
      `insert into regions (name, type, parent_id, workgroup_function, mailbox)
       values ('Betriebskoordination', 7, ?, 4, 'beko') returning id`,
      [regionId],
    );
    people.beko ??= await createUser(sql, 'beko', 2);
    await sql('insert into region_memberships (region_id, user_id) values (?, ?)', [
      group[0]!.id,
      people.beko,
    ]);
    await sql('insert into region_admins (region_id, user_id) values (?, ?)', [
      group[0]!.id,
      people.beko,
    ]);
    return group[0]!.id;
  }

  test.beforeAll(async ({ sql }) => {
    // _before(): a region, a store in it, two foodsavers (user2 in the team), two store
    // coordinators (manager running the store, manager2 not in its team), the region's
    // ambassador and an orga user.
    const region = await sql<{ id: number }[]>(
      "insert into regions (name, type, parent_id) values ('Cest-Stadt', 1, 2) returning id",
    );
    regionId = region[0]!.id;
    const store = await sql<{ id: number }[]>(
      "insert into stores (name, region_id) values ('Cest-Markt', ?) returning id",
      [regionId],
    );
    storeId = store[0]!.id;
    people.user = await createUser(sql, 'user', 1);
    people.user2 = await createUser(sql, 'user2', 1);
    people.manager = await createUser(sql, 'manager', 2);
    people.manager2 = await createUser(sql, 'manager2', 2);
    people.ambassador = await createUser(sql, 'ambassador', 3);
    people.orga = await createUser(sql, 'orga', 4);
    await sql(
      `insert into store_team_memberships (store_id, user_id, status, is_manager, joined_at)
       values (?, ?, 1, false, now()), (?, ?, 1, true, now())`,
      [storeId, people.user2, storeId, people.manager],
    );
    await sql('insert into region_admins (region_id, user_id) values (?, ?)', [
      regionId,
      people.ambassador,
    ]);
  });

  const window = () => {
    const from = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    return `/log/${from}/${to}/actions/1,2,3`;
  };

  it.for<[string, () => string]>([
    ['the store log', () => window()],
    ['the team requests', () => '/requests'],
  ])('canOnlySeeStoreInternalsIfAllowed: %s', async ([_what, suffix], { app, as, sql }) => {
    const readAs = async (who: string | null, url: string) =>
      platformRequest(app, who === null ? null : await as(people[who]!), { method: 'GET', url });
    const url = () => `/api/stores/${storeId}${suffix()}`;
    // Not logged in.
    expect((await readAs(null, url())).statusCode).toBe(401);
    // Logged in, not in the team.
    expect((await readAs('user', url())).statusCode).toBe(403);
    // In the team, but not running it: the log and the requests are for those who do.
    expect((await readAs('user2', url())).statusCode).toBe(403);
    // A store coordinator by role, not in this store's team.
    expect((await readAs('manager2', url())).statusCode).toBe(403);
    // The store's coordinator, orga, and the ambassador while the region has no BeKo.
    for (const who of ['manager', 'orga', 'ambassador']) {
      const response = await readAs(who, url());
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
    }
    // Once a BeKo group exists it holds the duty, and the ambassador no longer does.
    const beko = await createBeKo(sql);
    try {
      expect((await readAs('ambassador', url())).statusCode).toBe(403);
      expect((await readAs('beko', url())).statusCode).toBe(200);
    } finally {
      await sql('delete from regions where id = ?', [beko]);
    }
  });
});

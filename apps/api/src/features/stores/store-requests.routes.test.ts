import { openOrm, type MikroORM } from '@foodshare/domain';
import {
  StoreTeamRequestDecisionSchema,
  StoreTeamRequestListSchema,
  type StoreTeamRequestList,
} from '@foodshare/schemas';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiApp } from '../../app.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';
import {
  createManyUsers,
  expectPagesOf,
  INVALID_PAGE_QUERIES,
  VALID_PAGE_QUERIES,
} from '../../test-support/paging.ts';

const ids = inject('demoIds');
const BEISPIELDORF = 4;

interface Membership {
  status: number;
  joined_at: Date | null;
}

interface LogRow {
  action_type: number;
  actor_id: number;
  target_id: number;
}

describe('store team requests: GET, POST and DELETE /api/stores/{storeId}/requests', () => {
  let app: ApiApp;
  let orm: MikroORM;
  let userCount = 0;
  const users: Record<string, number> = {};
  const clients: Record<string, SignedInClient> = {};

  const sql = <T extends object[] = object[]>(query: string, params: unknown[] = []) =>
    orm.em.fork().execute<T>(query, params);

  async function createUser(
    tag: string,
    role: number,
    at: { latitude: number; longitude: number } | null = null,
  ): Promise<number> {
    userCount += 1;
    const rows = await sql<{ id: number }[]>(
      `insert into users (first_name, last_name, email, password_hash, role, verified,
                          latitude, longitude)
       values (?, 'Test', ?, 'x', ?, true, ?, ?) returning id`,
      [
        tag,
        `${tag.toLowerCase()}${userCount}@store-requests.example.org`,
        role,
        at?.latitude ?? null,
        at?.longitude ?? null,
      ],
    );
    return rows[0]!.id;
  }

  async function applicant(storeId = ids.storeId): Promise<number> {
    const id = await createUser('Applicant', 1, { latitude: 52.3759, longitude: 9.832 });
    await sql(
      `insert into store_team_memberships (store_id, user_id, status, application_message, applied_at)
       values (?, ?, 0, 'Ich möchte mitmachen.', now())`,
      [storeId, id],
    );
    return id;
  }

  async function membership(storeId: number, userId: number): Promise<Membership | undefined> {
    const rows = await sql<Membership[]>(
      'select status, joined_at from store_team_memberships where store_id = ? and user_id = ?',
      [storeId, userId],
    );
    return rows[0];
  }

  const logOf = (storeId: number, userId: number) =>
    sql<LogRow[]>(
      `select action_type, actor_id, target_id from store_log_entries
        where store_id = ? and target_id = ? order by id`,
      [storeId, userId],
    );

  const list = (client: SignedInClient | null, storeId: number | string = ids.storeId) =>
    app.inject({
      method: 'GET',
      url: `/api/stores/${storeId}/requests`,
      ...(client ? { cookies: client.cookies } : {}),
    });

  const decide = (
    method: 'POST' | 'DELETE',
    client: SignedInClient | null,
    userId: number | string,
    { storeId = ids.storeId, csrf = true }: { storeId?: number | string; csrf?: boolean } = {},
  ) =>
    app.inject({
      method,
      url: `/api/stores/${storeId}/requests/${userId}`,
      ...(client ? { cookies: client.cookies, ...(csrf ? { headers: client.headers } : {}) } : {}),
    });

  beforeAll(async () => {
    const built = await buildTestApp();
    app = built.app;
    orm = await openOrm({ url: built.database.url });
    users.orga = ids.users.orga;
    users.alice = ids.users.alice;
    users.kim = ids.users.kim;
    users.dana = ids.users.dana;
    users.carla = ids.users.carla;
    users.foodsaver = await createUser('Foodsaver', 1);
    users.otherManager = await createUser('OtherManager', 2);
    await sql(
      `insert into store_team_memberships (store_id, user_id, status, is_manager, joined_at)
       values (?, ?, 1, true, now())`,
      [ids.otherStoreId, users.otherManager],
    );
    users.coordinator = await createUser('Coordinator', 2);
    users.beispieldorfAmbassador = await createUser('Ambassador', 3);
    const group = await sql<{ id: number }[]>(
      `insert into regions (name, type, parent_id, workgroup_function)
       values ('Betriebskoordination Beispieldorf', 7, ?, 4) returning id`,
      [BEISPIELDORF],
    );
    await sql('insert into region_admins (region_id, user_id) values (?, ?), (?, ?)', [
      group[0]!.id,
      users.coordinator,
      BEISPIELDORF,
      users.beispieldorfAmbassador,
    ]);
    users.demotedManager = await createUser('DemotedManager', 1);
    users.demotedCoordinator = await createUser('DemotedCoordinator', 1);
    await sql(
      `insert into store_team_memberships (store_id, user_id, status, is_manager, joined_at)
       values (?, ?, 1, true, now())`,
      [ids.otherStoreId, users.demotedManager],
    );
    await sql('insert into region_admins (region_id, user_id) values (?, ?)', [
      group[0]!.id,
      users.demotedCoordinator,
    ]);
    for (const [name, id] of Object.entries(users)) clients[name] = await signInAs(app, id);
  });

  afterAll(async () => {
    await app.close();
    await orm.close();
  });

  describe('GET /api/stores/{storeId}/requests', () => {
    it("lists bob's pending request with his full name and distance to the store", async () => {
      const response = await list(clients.alice!);
      expect(response.statusCode).toBe(200);
      const requests = response.json<StoreTeamRequestList>();
      expect(Value.Check(StoreTeamRequestListSchema, requests)).toBe(true);
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({
        user: { id: ids.users.bob, name: 'Bob Beispiel', avatar: null, isSleeping: false },
        firstName: 'Bob',
        verified: true,
        // Feldweg 7, Beispieldorf to Marktstraße 12, Musterstadt: 9.8 km as the crow flies.
        distanceInKm: 10,
      });
      expect(requests[0]!.message).toMatch(/^Hallo! Ich wohne in Beispieldorf/);
      expect(Date.now() - Date.parse(requests[0]!.date)).toBeGreaterThan(36 * 60 * 60 * 1000);
    });

    it('gives -1 for an applicant without an address, newest request first', async () => {
      const homeless = await createUser('Nomad', 1);
      await sql(
        `insert into store_team_memberships (store_id, user_id, status, applied_at)
         values (?, ?, 0, now())`,
        [ids.storeId, homeless],
      );
      const requests = (await list(clients.alice!)).json<StoreTeamRequestList>();
      expect(requests.map((request) => request.user.id)).toEqual([homeless, ids.users.bob]);
      expect(requests[0]).toMatchObject({
        user: { name: 'Nomad Test' },
        firstName: 'Nomad',
        distanceInKm: -1,
        message: null,
      });
      await sql('delete from store_team_memberships where user_id = ?', [homeless]);
    });

    it('gives every reader the same distance, orga included', async () => {
      for (const reader of ['orga', 'dana', 'alice']) {
        const requests = (await list(clients[reader]!)).json<StoreTeamRequestList>();
        expect(requests[0]).toMatchObject({ firstName: 'Bob', distanceInKm: 10 });
      }
    });

    it('gives -1 for every applicant when the store has no address', async () => {
      const stores = await sql<{ id: number }[]>(
        "insert into stores (name, region_id) values ('Ohne Adresse', 3) returning id",
      );
      const withAddress = await applicant(stores[0]!.id);
      const requests = (await list(clients.orga!, stores[0]!.id)).json<StoreTeamRequestList>();
      expect(requests).toMatchObject([{ user: { id: withAddress }, distanceInKm: -1 }]);
    });

    it('lists an empty team request list as []', async () => {
      const response = await list(clients.otherManager!, ids.otherStoreId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
    });

    it.each([
      ['orga', 'store', 200],
      ['alice', 'store', 200], // store manager of the store
      ['dana', 'store', 200], // ambassador of Musterstadt, which has no stores-coordination group
      ['kim', 'store', 403], // team member, store manager by role
      ['otherManager', 'store', 403], // store manager of another store
      ['foodsaver', 'store', 403],
      ['carla', 'store', 403], // foodsharer
      ['coordinator', 'store', 403], // coordination admin of another region
      ['coordinator', 'otherStore', 200], // admin of Beispieldorf's stores-coordination group
      ['beispieldorfAmbassador', 'otherStore', 403], // the group holds the duty, not she
      ['dana', 'otherStore', 403],
      ['otherManager', 'otherStore', 200],
      // Below the store-manager role the relation no longer counts.
      ['demotedManager', 'otherStore', 403], // manager of the bakery, role foodsaver
      ['demotedCoordinator', 'otherStore', 403], // coordination group admin, role foodsaver
    ] as const)('%s listing the requests of %s: %i', async (who, store, status) => {
      const storeId = store === 'store' ? ids.storeId : ids.otherStoreId;
      const response = await list(clients[who]!, storeId);
      expect(response.statusCode).toBe(status);
      if (status === 403) {
        expect(response.json()).toMatchObject({ code: 'STORE_TEAM_REQUESTS_FORBIDDEN' });
      } else {
        expect(Value.Check(StoreTeamRequestListSchema, response.json())).toBe(true);
      }
    });

    it('pages with limit and offset, newest first, 100 by default', async () => {
      const stores = await sql<{ id: number }[]>(
        "insert into stores (name, region_id) values ('Viele Anfragen', 3) returning id",
      );
      const storeId = stores[0]!.id;
      const applicants = await createManyUsers(orm, 'Anfrage', 101);
      // The n-th applicant applied n minutes after the first: newest first is the reverse order.
      await sql(
        `insert into store_team_memberships (store_id, user_id, status, applied_at)
         select ?, u, 0, now() - interval '1 day' + make_interval(mins => u - ?)
           from unnest(?::int[]) as u`,
        [storeId, applicants[0]!, `{${applicants.join(',')}}`],
      );
      const page = async (query: string) => {
        const response = await app.inject({
          method: 'GET',
          url: `/api/stores/${storeId}/requests?${query}`,
          cookies: clients.orga!.cookies,
        });
        expect(response.statusCode).toBe(200);
        return response.json<StoreTeamRequestList>().map((request) => request.user.id);
      };
      await expectPagesOf([...applicants].reverse(), page);
    });

    it.each(INVALID_PAGE_QUERIES)('answers 400 for %s', async (query) => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/stores/${ids.storeId}/requests?${query}`,
        cookies: clients.alice!.cookies,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it.each(VALID_PAGE_QUERIES)('accepts %s', async (query) => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/stores/${ids.storeId}/requests?${query}`,
        cookies: clients.alice!.cookies,
      });
      expect(response.statusCode).toBe(200);
    });

    it('answers 401 without a session', async () => {
      const response = await list(null);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    it.each(['0', 'abc', '01', '-1', '1e3', '4294967296', '2147483648', '2147483647'])(
      'answers 404 for the store id %s',
      async (storeId) => {
        const response = await list(clients.orga!, storeId);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
      },
    );
  });

  describe.each([
    ['POST', 'accepted', 3],
    ['DELETE', 'declined', 2],
  ] as const)('%s /api/stores/{storeId}/requests/{userId}', (method, decision, action) => {
    it(`records the decision and logs action ${action} in the store log`, async () => {
      const userId = await applicant();
      const response = await decide(method, clients.alice!, userId);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ decidedAt: string }>();
      expect(Value.Check(StoreTeamRequestDecisionSchema, body)).toBe(true);
      expect(body).toMatchObject({ storeId: ids.storeId, userId, decision });

      const after = await membership(ids.storeId, userId);
      if (decision === 'accepted') {
        expect(after?.status).toBe(1);
        expect(after?.joined_at).not.toBeNull();
      } else {
        expect(after).toBeUndefined();
      }
      expect(await logOf(ids.storeId, userId)).toEqual([
        { action_type: action, actor_id: ids.users.alice, target_id: userId },
      ]);
      // The effect is visible through the API: gone from the requests, present in the log.
      const requests = (await list(clients.alice!)).json<StoreTeamRequestList>();
      expect(requests.map((request) => request.user.id)).not.toContain(userId);
      const from = encodeURIComponent(new Date(Date.now() - 60_000).toISOString());
      const to = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
      const log = await app.inject({
        method: 'GET',
        url: `/api/stores/${ids.storeId}/log/${from}/${to}/actions/${action}`,
        cookies: clients.alice!.cookies,
      });
      expect(log.json()).toContainEqual(
        expect.objectContaining({
          actionType: action,
          performedAt: body.decidedAt,
          actor: expect.objectContaining({ id: ids.users.alice }),
          target: expect.objectContaining({ id: userId, name: 'Applicant' }),
        }),
      );
    });

    it('answers 404 STORE_TEAM_REQUEST_NOT_FOUND when nothing is pending, and logs nothing', async () => {
      const userId = await applicant();
      expect((await decide(method, clients.alice!, userId)).statusCode).toBe(200);
      const again = await decide(method, clients.alice!, userId);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toMatchObject({ code: 'STORE_TEAM_REQUEST_NOT_FOUND' });
      expect(await logOf(ids.storeId, userId)).toHaveLength(1);
      // A member (kim) and a stranger have no request to decide on either.
      for (const other of [ids.users.kim, users.foodsaver!]) {
        const response = await decide(method, clients.alice!, other);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'STORE_TEAM_REQUEST_NOT_FOUND' });
      }
      expect((await membership(ids.storeId, ids.users.kim))?.status).toBe(1);
    });

    it('refuses a request without the CSRF token (403 CSRF_FAILED) and changes nothing', async () => {
      const userId = await applicant();
      const response = await decide(method, clients.alice!, userId, { csrf: false });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'CSRF_FAILED' });
      expect((await membership(ids.storeId, userId))?.status).toBe(0);
      expect(await logOf(ids.storeId, userId)).toEqual([]);
    });

    it('answers 401 without a session', async () => {
      const userId = await applicant();
      const response = await decide(method, null, userId);
      expect(response.statusCode).toBe(401);
      expect((await membership(ids.storeId, userId))?.status).toBe(0);
    });

    it.each([
      ['orga', 'store', 200],
      ['alice', 'store', 200],
      ['dana', 'store', 200],
      ['kim', 'store', 403],
      ['otherManager', 'store', 403],
      ['foodsaver', 'store', 403],
      ['carla', 'store', 403],
      ['coordinator', 'store', 403],
      ['coordinator', 'otherStore', 200],
      ['beispieldorfAmbassador', 'otherStore', 403],
      ['dana', 'otherStore', 403],
      ['otherManager', 'otherStore', 200],
      ['demotedManager', 'otherStore', 403],
      ['demotedCoordinator', 'otherStore', 403],
    ] as const)('%s deciding on a request to %s: %i', async (who, store, status) => {
      const storeId = store === 'store' ? ids.storeId : ids.otherStoreId;
      const userId = await applicant(storeId);
      const response = await decide(method, clients[who]!, userId, { storeId });
      expect(response.statusCode).toBe(status);
      if (status === 403) {
        expect(response.json()).toMatchObject({ code: 'STORE_TEAM_REQUESTS_FORBIDDEN' });
        expect((await membership(storeId, userId))?.status).toBe(0);
        expect(await logOf(storeId, userId)).toEqual([]);
      } else {
        expect(await logOf(storeId, userId)).toHaveLength(1);
      }
    });

    it.each([
      ['0', '5'],
      ['abc', '5'],
      ['01', '5'],
      ['4294967296', '5'],
      ['2147483647', '5'], // no such store
      ['store', '0'],
      ['store', '05'],
      ['store', 'abc'],
      ['store', '4294967296'],
    ])('answers 404 for store %s and user %s', async (storeId, userId) => {
      const store = storeId === 'store' ? String(ids.storeId) : storeId;
      const response = await decide(method, clients.orga!, userId, { storeId: store });
      expect(response.statusCode).toBe(404);
    });

    it('leaves the request pending when the log entry cannot be written', async () => {
      const userId = await applicant();
      // A real failure of the log insert inside the same statement, for this applicant only.
      await sql(`create function refuse_log_entry() returns trigger language plpgsql as $$
                 begin raise exception 'log refused'; end $$`);
      await sql(`create trigger refuse_log_entry before insert on store_log_entries
                 for each row when (new.target_id = ${userId}) execute function refuse_log_entry()`);
      try {
        const response = await decide(method, clients.alice!, userId);
        expect(response.statusCode).toBe(500);
        expect(response.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
        expect(response.body).not.toContain('log refused');
      } finally {
        await sql('drop trigger refuse_log_entry on store_log_entries');
        await sql('drop function refuse_log_entry()');
      }
      expect(await membership(ids.storeId, userId)).toMatchObject({ status: 0, joined_at: null });
      expect(await logOf(ids.storeId, userId)).toEqual([]);
      expect((await decide(method, clients.alice!, userId)).statusCode).toBe(200);
    });
  });
});

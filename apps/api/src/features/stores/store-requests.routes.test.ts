import {
  StoreTeamRequestDecisionSchema,
  StoreTeamRequestListSchema,
  type StoreTeamRequestList,
} from '@foodshare/schemas';
import { Value } from 'typebox/value';
import {
  type ApiClient,
  describe,
  expect,
  type Factories,
  ids,
  it,
  type Sql,
  test,
  type UserClient,
} from '../../test-support/fixtures.ts';
import {
  createManyUsers,
  expectPagesOf,
  INVALID_PAGE_QUERIES,
  VALID_PAGE_QUERIES,
} from '../../test-support/paging.ts';

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

/** A foodsaver living near the demo store who asked to join the team of `storeId`. */
async function applicant(factory: Factories, storeId = ids.storeId): Promise<number> {
  const id = await factory.user({ firstName: 'Applicant', latitude: 52.3759, longitude: 9.832 });
  await factory.applyToStore(storeId, id, 'Ich möchte mitmachen.');
  return id;
}

async function membership(
  sql: Sql,
  storeId: number,
  userId: number,
): Promise<Membership | undefined> {
  const rows = await sql<Membership[]>(
    'select status, joined_at from store_team_memberships where store_id = ? and user_id = ?',
    [storeId, userId],
  );
  return rows[0];
}

const logOf = (sql: Sql, storeId: number, userId: number) =>
  sql<LogRow[]>(
    `select action_type, actor_id, target_id from store_log_entries
      where store_id = ? and target_id = ? order by id`,
    [storeId, userId],
  );

const list = (client: ApiClient, storeId: number | string = ids.storeId) =>
  client.get(`/api/stores/${storeId}/requests`);

const decide = (
  method: 'POST' | 'DELETE',
  client: ApiClient,
  userId: number | string,
  { storeId = ids.storeId }: { storeId?: number | string } = {},
) => client.request(method, `/api/stores/${storeId}/requests/${userId}`);

describe('store team requests: GET, POST and DELETE /api/stores/{storeId}/requests', () => {
  const users: Record<string, number> = {};
  const clients: Record<string, UserClient> = {};

  test.beforeAll(async ({ as, factory }) => {
    users.orga = ids.users.orga;
    users.alice = ids.users.alice;
    users.kim = ids.users.kim;
    users.dana = ids.users.dana;
    users.carla = ids.users.carla;
    users.foodsaver = await factory.user({ role: 1 });
    users.otherManager = await factory.user({ role: 2 });
    await factory.joinStore(ids.otherStoreId, users.otherManager, { manager: true });
    users.coordinator = await factory.user({ role: 2 });
    users.beispieldorfAmbassador = await factory.user({ role: 3 });
    const group = await factory.workGroup(BEISPIELDORF, 4, 'Betriebskoordination Beispieldorf');
    await factory.addAdmin(group, users.coordinator);
    await factory.addAdmin(BEISPIELDORF, users.beispieldorfAmbassador);
    users.demotedManager = await factory.user({ role: 1 });
    users.demotedCoordinator = await factory.user({ role: 1 });
    await factory.joinStore(ids.otherStoreId, users.demotedManager, { manager: true });
    await factory.addAdmin(group, users.demotedCoordinator);
    for (const [name, id] of Object.entries(users)) clients[name] = await as(id);
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

    it('gives -1 for an applicant without an address, newest request first', async ({
      sql,
      factory,
    }) => {
      const homeless = await factory.user({ firstName: 'Nomad' });
      await factory.applyToStore(ids.storeId, homeless);
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

    it('gives -1 for every applicant when the store has no address', async ({ factory }) => {
      const storeId = await factory.store({ name: 'Ohne Adresse' });
      const withAddress = await applicant(factory, storeId);
      const requests = (await list(clients.orga!, storeId)).json<StoreTeamRequestList>();
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

    it('pages with limit and offset, newest first, 100 by default', async ({
      app,
      sql,
      factory,
    }) => {
      const storeId = await factory.store({ name: 'Viele Anfragen' });
      const applicants = await createManyUsers(app.orm, 'Anfrage', 101);
      // The n-th applicant applied n minutes after the first: newest first is the reverse order.
      await sql(
        `insert into store_team_memberships (store_id, user_id, status, applied_at)
         select ?, u, 0, now() - interval '1 day' + make_interval(mins => u - ?)
           from unnest(?::int[]) as u`,
        [storeId, applicants[0]!, `{${applicants.join(',')}}`],
      );
      const page = async (query: string) => {
        const response = await clients.orga!.get(`/api/stores/${storeId}/requests?${query}`);
        expect(response.statusCode).toBe(200);
        return response.json<StoreTeamRequestList>().map((request) => request.user.id);
      };
      await expectPagesOf([...applicants].reverse(), page);
    });

    it.each(INVALID_PAGE_QUERIES)('answers 400 for %s', async (query) => {
      const response = await clients.alice!.get(`/api/stores/${ids.storeId}/requests?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it.each(VALID_PAGE_QUERIES)('accepts %s', async (query) => {
      const response = await clients.alice!.get(`/api/stores/${ids.storeId}/requests?${query}`);
      expect(response.statusCode).toBe(200);
    });

    it('answers 401 without a session', async ({ anonymous }) => {
      const response = await list(anonymous);
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
    it(`records the decision and logs action ${action} in the store log`, async ({
      sql,
      factory,
    }) => {
      const userId = await applicant(factory);
      const response = await decide(method, clients.alice!, userId);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ decidedAt: string }>();
      expect(Value.Check(StoreTeamRequestDecisionSchema, body)).toBe(true);
      expect(body).toMatchObject({ storeId: ids.storeId, userId, decision });

      const after = await membership(sql, ids.storeId, userId);
      if (decision === 'accepted') {
        expect(after?.status).toBe(1);
        expect(after?.joined_at).not.toBeNull();
      } else {
        expect(after).toBeUndefined();
      }
      expect(await logOf(sql, ids.storeId, userId)).toEqual([
        { action_type: action, actor_id: ids.users.alice, target_id: userId },
      ]);
      // The effect is visible through the API: gone from the requests, present in the log.
      const requests = (await list(clients.alice!)).json<StoreTeamRequestList>();
      expect(requests.map((request) => request.user.id)).not.toContain(userId);
      const from = encodeURIComponent(new Date(Date.now() - 60_000).toISOString());
      const to = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
      const log = await clients.alice!.get(
        `/api/stores/${ids.storeId}/log/${from}/${to}/actions/${action}`,
      );
      expect(log.json()).toContainEqual(
        expect.objectContaining({
          actionType: action,
          performedAt: body.decidedAt,
          actor: expect.objectContaining({ id: ids.users.alice }),
          target: expect.objectContaining({ id: userId, name: 'Applicant' }),
        }),
      );
    });

    it('answers 404 STORE_TEAM_REQUEST_NOT_FOUND when nothing is pending, and logs nothing', async ({
      sql,
      factory,
    }) => {
      const userId = await applicant(factory);
      expect((await decide(method, clients.alice!, userId)).statusCode).toBe(200);
      const again = await decide(method, clients.alice!, userId);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toMatchObject({ code: 'STORE_TEAM_REQUEST_NOT_FOUND' });
      expect(await logOf(sql, ids.storeId, userId)).toHaveLength(1);
      // A member (kim) and a stranger have no request to decide on either.
      for (const other of [ids.users.kim, users.foodsaver!]) {
        const response = await decide(method, clients.alice!, other);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'STORE_TEAM_REQUEST_NOT_FOUND' });
      }
      expect((await membership(sql, ids.storeId, ids.users.kim))?.status).toBe(1);
    });

    it('refuses a request without the CSRF token (403 CSRF_FAILED) and changes nothing', async ({
      sql,
      factory,
    }) => {
      const userId = await applicant(factory);
      const response = await decide(method, clients.alice!.withoutCsrf(), userId);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'CSRF_FAILED' });
      expect((await membership(sql, ids.storeId, userId))?.status).toBe(0);
      expect(await logOf(sql, ids.storeId, userId)).toEqual([]);
    });

    it('answers 401 without a session', async ({ sql, factory, anonymous }) => {
      const userId = await applicant(factory);
      const response = await decide(method, anonymous, userId);
      expect(response.statusCode).toBe(401);
      expect((await membership(sql, ids.storeId, userId))?.status).toBe(0);
    });

    it.for([
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
    ] as const)(
      '%s deciding on a request to %s: %i',
      async ([who, store, status], { sql, factory }) => {
        const storeId = store === 'store' ? ids.storeId : ids.otherStoreId;
        const userId = await applicant(factory, storeId);
        const response = await decide(method, clients[who]!, userId, { storeId });
        expect(response.statusCode).toBe(status);
        if (status === 403) {
          expect(response.json()).toMatchObject({ code: 'STORE_TEAM_REQUESTS_FORBIDDEN' });
          expect((await membership(sql, storeId, userId))?.status).toBe(0);
          expect(await logOf(sql, storeId, userId)).toEqual([]);
        } else {
          expect(await logOf(sql, storeId, userId)).toHaveLength(1);
        }
      },
    );

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

    it('leaves the request pending when the log entry cannot be written', async ({
      sql,
      factory,
    }) => {
      const userId = await applicant(factory);
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
      expect(await membership(sql, ids.storeId, userId)).toMatchObject({
        status: 0,
        joined_at: null,
      });
      expect(await logOf(sql, ids.storeId, userId)).toEqual([]);
      expect((await decide(method, clients.alice!, userId)).statusCode).toBe(200);
    });
  });
});

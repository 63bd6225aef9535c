import { StoreLogSchema, type StoreLog } from '@foodshare/schemas';
import { Value } from 'typebox/value';
import {
  type ApiClient,
  describe,
  expect,
  ids,
  it,
  test,
  type UserClient,
} from '../../test-support/fixtures.ts';
import { monthsBefore } from './store-log-window.ts';

const DAY = 24 * 60 * 60 * 1000;
const ALL_ACTIONS = Array.from({ length: 20 }, (_, i) => i + 1).join(',');
const BEISPIELDORF = 4;
const MUSTERSTADT = 3;

const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const logUrl = (storeId: number | string, from: string, to: string, actions: string, query = '') =>
  `/api/stores/${storeId}/log/${encodeURIComponent(from)}/${encodeURIComponent(to)}/actions/${actions}${query}`;

const get = (client: ApiClient, url: string) => client.get(url);

/** The last 6 months but a day, up to tomorrow: every readable demo entry. */
const recent = (actions = ALL_ACTIONS, query = '', storeId: number | string = ids.storeId) =>
  logUrl(storeId, daysAgo(180), daysAgo(-1), actions, query);

describe('store log: GET /api/stores/{storeId}/log/{fromDate}/{toDate}/actions/{ids}', () => {
  const clients: Record<string, UserClient> = {};

  test.beforeAll(async ({ as, factory }) => {
    const users: Record<string, number> = {
      orga: ids.users.orga,
      alice: ids.users.alice,
      kim: ids.users.kim,
      dana: ids.users.dana,
      carla: ids.users.carla,
    };
    users.foodsaver = await factory.user({ role: 1 });
    users.otherManager = await factory.user({ role: 2 });
    await factory.joinStore(ids.otherStoreId, users.otherManager, { manager: true });
    // Beispieldorf delegates stores coordination to a group: its ambassador loses the duty.
    users.coordinator = await factory.user({ role: 2 });
    users.beispieldorfAmbassador = await factory.user({ role: 3 });
    const group = await factory.workGroup(BEISPIELDORF, 4, 'Betriebskoordination Beispieldorf');
    await factory.addAdmin(group, users.coordinator);
    await factory.addAdmin(BEISPIELDORF, users.beispieldorfAmbassador);
    // Relations kept after the role fell below store manager.
    users.demotedManager = await factory.user({ role: 1 });
    users.demotedCoordinator = await factory.user({ role: 1 });
    users.demotedAmbassador = await factory.user({ role: 1 });
    await factory.joinStore(ids.otherStoreId, users.demotedManager, { manager: true });
    await factory.addAdmin(group, users.demotedCoordinator);
    await factory.addAdmin(MUSTERSTADT, users.demotedAmbassador);
    for (const [name, id] of Object.entries(users)) clients[name] = await as(id);
  });

  it('returns the readable entries newest first, with actor and target stubs', async () => {
    const response = await get(clients.alice!, recent());
    expect(response.statusCode).toBe(200);
    const log = response.json<StoreLog>();
    expect(Value.Check(StoreLogSchema, log)).toBe(true);
    // Nine demo entries; the one of 200 days ago lies beyond the window.
    expect(log.map((entry) => entry.actionType)).toEqual([1, 15, 14, 11, 13, 5, 4, 9]);
    const times = log.map((entry) => Date.parse(entry.performedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(log[0]).toMatchObject({
      actionType: 1,
      actor: { id: ids.users.bob, name: 'Bob', avatar: null, isSleeping: false },
      target: { id: ids.users.bob },
      dateReference: null,
      reason: null,
    });
    expect(log[0]!.content).toMatch(/^Hallo!/);
    expect(log[1]).toMatchObject({
      actionType: 15,
      actor: { id: ids.users.alice, name: 'Alice', avatar: `/api/uploads/${ids.avatarUploadId}` },
      target: null,
      content: 'Wer hat meine blaue Kiste mitgenommen?',
    });
    expect(log[2]!.dateReference).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(log[5]).toMatchObject({
      actionType: 5,
      reason: 'Auf eigenen Wunsch bis nach dem Umzug.',
    });
  });

  it('filters by action type, each id once', async () => {
    const one = await get(clients.alice!, recent('15'));
    expect(one.json<StoreLog>().map((entry) => entry.actionType)).toEqual([15]);
    const repeated = await get(clients.alice!, recent('15,1,15,1'));
    expect(repeated.statusCode).toBe(200);
    expect(repeated.json<StoreLog>().map((entry) => entry.actionType)).toEqual([1, 15]);
    const none = await get(clients.alice!, recent('20'));
    expect(none.json()).toEqual([]);
  });

  it('keeps to the window, both ends inclusive', async () => {
    const full = (await get(clients.alice!, recent())).json<StoreLog>();
    const newest = full[0]!.performedAt;
    const exact = await get(clients.alice!, logUrl(ids.storeId, newest, newest, ALL_ACTIONS));
    expect(exact.json<StoreLog>().map((entry) => entry.performedAt)).toEqual([newest]);
    const lastWeek = await get(clients.alice!, logUrl(ids.storeId, daysAgo(7), daysAgo(0), '1,15'));
    expect(lastWeek.json<StoreLog>().map((entry) => entry.actionType)).toEqual([1, 15]);
  });

  it('reads back six months less a day, not six months and a day (400 STORE_LOG_WINDOW_TOO_OLD)', async () => {
    const boundary = monthsBefore(new Date(), 6).getTime();
    const inside = new Date(boundary + DAY).toISOString();
    const outside = new Date(boundary - DAY).toISOString();
    const ok = await get(clients.alice!, logUrl(ids.storeId, inside, daysAgo(0), ALL_ACTIONS));
    expect(ok.statusCode).toBe(200);
    const tooOld = await get(clients.alice!, logUrl(ids.storeId, outside, daysAgo(0), ALL_ACTIONS));
    expect(tooOld.statusCode).toBe(400);
    expect(tooOld.headers['content-type']).toContain('application/problem+json');
    expect(tooOld.json()).toMatchObject({ status: 400, code: 'STORE_LOG_WINDOW_TOO_OLD' });
  });

  it.each([
    ['2026-11-22T04:53:00Z', '2026-05-22T04:53:00Z', '2026-11-22T04:53:00.000Z'],
    ['2026-08-31T12:00:00Z', '2026-02-28T12:00:00Z', 'the end of a shorter month'],
    ['2028-08-31T12:00:00Z', '2028-02-29T12:00:00Z', 'a leap year'],
    ['2026-03-15T00:00:00Z', '2025-09-15T00:00:00Z', 'across a year'],
  ])('six months before %s is %s (%s)', (now, expected) => {
    expect(monthsBefore(new Date(now), 6).toISOString()).toBe(new Date(expected).toISOString());
  });

  it('refuses a window that ends before it starts (400 STORE_LOG_WINDOW_REVERSED)', async () => {
    const response = await get(clients.alice!, logUrl(ids.storeId, daysAgo(1), daysAgo(2), '1'));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'STORE_LOG_WINDOW_REVERSED' });
  });

  it.each(['0', '99', '21', '1,99', '99999999999999999999'])(
    'refuses the unknown action id list %s (400 STORE_LOG_UNKNOWN_ACTION)',
    async (actions) => {
      const response = await get(clients.alice!, recent(actions));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'STORE_LOG_UNKNOWN_ACTION' });
    },
  );

  it('accepts action ids with leading zeros as the ids they spell', async () => {
    const response = await get(clients.alice!, recent('015,01'));
    expect(response.json<StoreLog>().map((entry) => entry.actionType)).toEqual([1, 15]);
  });

  it.each(['1,,2', '1,', ',1', 'a', '1;2', '-1', '1%202'])(
    'answers 404 for the malformed action list %s',
    async (actions) => {
      const response = await get(clients.alice!, recent(actions));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    },
  );

  it.each([
    ['a date without time', '2026-06-01'],
    ['an impossible day', '2026-02-30T00:00:00Z'],
    ['a space for T', '2026-06-01 00:00:00Z'],
    ['no offset', '2026-06-01T00:00:00'],
    ['an offset without colon', '2026-06-01T00:00:00+0100'],
    ['a leap second', '2026-06-30T23:59:60Z'],
    ['no seconds', '2026-06-01T00:00Z'],
    ['hour 24', '2026-06-01T24:00:00Z'],
    ['a word', 'yesterday'],
    ['a Unix time', '1780000000'],
  ])('answers 404 for %s as fromDate or toDate', async (_why, value) => {
    const asFrom = await get(clients.alice!, logUrl(ids.storeId, value, daysAgo(0), '1'));
    expect(asFrom.statusCode).toBe(404);
    const asTo = await get(clients.alice!, logUrl(ids.storeId, daysAgo(1), value, '1'));
    expect(asTo.statusCode).toBe(404);
  });

  it('accepts RFC 3339 offsets, fractions and lower-case t and z', async () => {
    const from = new Date(Date.now() - 7 * DAY);
    const local = from.toISOString().replace('Z', '+00:00').replace('T', 't');
    const shifted = new Date(from.getTime() + 2 * 60 * 60 * 1000)
      .toISOString()
      .replace(/\.\d+Z$/, '.123456+02:00');
    const to = daysAgo(-1).replace('Z', 'z');
    for (const value of [local, shifted]) {
      const response = await get(clients.alice!, logUrl(ids.storeId, value, to, '1,15'));
      expect(response.statusCode, value).toBe(200);
      expect(response.json<StoreLog>()).toHaveLength(2);
    }
  });

  it.each(['0', 'abc', '4294967296', '2147483648', '-1', '1e3', '0x10', '+1', '1.0'])(
    'answers 404 for the store id %s',
    async (storeId) => {
      const response = await get(clients.alice!, recent('1', '', storeId));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    },
  );

  it('answers 404 for an unknown store, even to orga', async () => {
    const response = await get(clients.orga!, recent('1', '', 2147483647));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('reads the integer store id with leading zeros as the id it spells', async () => {
    const response = await get(clients.alice!, recent('1', '', `00${ids.storeId}`));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveLength(1);
  });

  it('answers 401 without a session', async ({ anonymous }) => {
    const response = await get(anonymous, recent());
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  describe('who may read the log', () => {
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
      ['dana', 'otherStore', 403], // ambassador of another region
      ['otherManager', 'otherStore', 200],
      // Orga aside, the store-manager role comes first: the relation alone does not count.
      ['demotedManager', 'otherStore', 403], // manager of the bakery, role foodsaver
      ['demotedCoordinator', 'otherStore', 403], // coordination group admin, role foodsaver
      ['demotedAmbassador', 'store', 403], // admin of Musterstadt, role foodsaver
    ] as const)('%s reading the log of %s: %i', async (who, store, status) => {
      const storeId = store === 'store' ? ids.storeId : ids.otherStoreId;
      const response = await get(clients[who]!, recent(ALL_ACTIONS, '', storeId));
      expect(response.statusCode).toBe(status);
      if (status === 403) expect(response.json()).toMatchObject({ code: 'STORE_LOG_FORBIDDEN' });
      else expect(Value.Check(StoreLogSchema, response.json())).toBe(true);
    });
  });

  describe('limit and offset', () => {
    it.each([
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=-1', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=1e2', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=0.5', 'offset'],
      ['offset=2147483648', 'offset'],
      ['offset=99999999999999999999', 'offset'],
    ])('refuses %s (400 VALIDATION_FAILED)', async (query, field) => {
      const response = await get(clients.alice!, recent(ALL_ACTIONS, `?${query}`));
      expect(response.statusCode).toBe(400);
      const body = response.json<{ code: string; errors: { path: string }[] }>();
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.errors.map((error) => error.path).join()).toContain(field);
    });

    it.each([
      ['limit=1', 1],
      ['limit=1000', 8],
      ['limit=3&offset=7', 1],
      ['offset=8', 0],
      ['offset=0', 8],
      ['offset=2147483647', 0],
    ])('takes %s', async (query, count) => {
      const response = await get(clients.alice!, recent(ALL_ACTIONS, `?${query}`));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toHaveLength(count);
    });

    it('pages through the log without gaps or overlaps, ties included', async ({ sql }) => {
      // Three entries of one instant: the id keeps their order stable across pages.
      await sql(
        `insert into store_log_entries (store_id, action_type, actor_id, target_id, performed_at)
         select ?, 12, ?, ?, now() - interval '1 hour' from generate_series(1, 3)`,
        [ids.storeId, ids.users.kim, ids.users.kim],
      );
      const full = (await get(clients.alice!, recent())).json<StoreLog>();
      expect(full).toHaveLength(11);
      const pages: StoreLog = [];
      for (let offset = 0; offset < 12; offset += 2) {
        const page = await get(clients.alice!, recent(ALL_ACTIONS, `?limit=2&offset=${offset}`));
        pages.push(...page.json<StoreLog>());
      }
      expect(pages).toEqual(full);
      expect(full[1]).toMatchObject({ actionType: 12 });
    });
  });

  it('keeps the entries of deleted users, with null for the person', async ({ sql }) => {
    await sql(
      `insert into store_log_entries (store_id, action_type, actor_id, target_id, performed_at)
       values (?, 16, null, null, now() - interval '1 day')`,
      [ids.storeId],
    );
    const response = await get(clients.alice!, recent('16'));
    const log = response.json<StoreLog>();
    expect(Value.Check(StoreLogSchema, log)).toBe(true);
    expect(log).toMatchObject([{ actionType: 16, actor: null, target: null }]);
  });
});

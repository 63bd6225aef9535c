import { StoreChainKamsSchema, StoreChainReadSchema } from '@foodshare/schemas';
import { Value } from 'typebox/value';
import { inject } from 'vitest';
import {
  type ApiClient,
  describe,
  expect,
  type Factories,
  it,
  type Sql,
  test,
} from '../../test-support/fixtures.ts';
import { lockWaiters } from '../../test-support/sql.ts';

// Not imported from the fixtures: the test names print the functions that read it.
const ids = inject('demoIds');

/** Path values that name no chain: each chain route answers 404 (docs/design.md §3.2). */
const BAD_CHAIN_IDS: [string, string][] = [
  ['an unknown chain', '999999'],
  ['a leading zero', `0${ids.chainId}`],
  ['letters', 'abc'],
  ['0', '0'],
  ['an id beyond 32 bits', '4294967296'],
];
const CHAIN_GROUP = 332;

let chainCount = 0;

/** A user whose stub names him Chris. */
const createUser = (factory: Factories, role: number) =>
  factory.user({ role, firstName: 'Chris', lastName: 'Chain' });

/** A chain with kim as its KAM, as the demo chain has. */
async function createChain(sql: Sql, kams: number[] = [ids.users.kim]): Promise<number> {
  chainCount += 1;
  const rows = await sql<{ id: number }[]>(
    `insert into store_chains (name, status, headquarters_zip, headquarters_city, notes,
                               estimated_store_count, region_id)
     values (?, 1, '12345', 'Musterstadt', 'Notiz', 7, 3) returning id`,
    [`Testkette ${chainCount}`],
  );
  const chainId = rows[0]!.id;
  for (const kam of kams) {
    await sql('insert into store_chain_kams (chain_id, user_id) values (?, ?)', [chainId, kam]);
  }
  return chainId;
}

const kamsOf = async (sql: Sql, chainId: number) =>
  (
    await sql<{ user_id: number }[]>(
      'select user_id from store_chain_kams where chain_id = ? order by user_id',
      [chainId],
    )
  ).map((row) => row.user_id);

const nameOf = async (sql: Sql, chainId: number) =>
  (await sql<{ name: string }[]>('select name from store_chains where id = ?', [chainId]))[0]!.name;

/** The user stub of a user created by createUser. */
const stub = (id: number) => ({ id, name: 'Chris', avatar: null, isSleeping: false });

const readKams = (who: ApiClient, chainId: number | string) =>
  who.get(`/api/chains/${chainId}/kams`);

const read = (who: ApiClient, chainId: number | string) => who.get(`/api/chains/${chainId}`);

const patch = (who: ApiClient, chainId: number | string, payload: object) =>
  who.patch(`/api/chains/${chainId}`, payload);

describe('store chains: GET and PATCH /api/chains/{chainId}', () => {
  const roleUsers: number[] = [];
  let groupAdmin: number;
  let groupMember: number;
  /** KAM of another chain only. */
  let otherKam: number;
  /** A second thread of the store-chain group's forum. */
  let groupThread: number;

  test.beforeAll(async ({ sql, factory }) => {
    for (const role of [0, 1, 2, 3, 4]) roleUsers.push(await createUser(factory, role));
    groupAdmin = await createUser(factory, 1);
    groupMember = await createUser(factory, 2);
    otherKam = await createUser(factory, 1);
    await factory.addAdmin(CHAIN_GROUP, groupAdmin);
    await factory.addMember(CHAIN_GROUP, groupAdmin, groupMember, otherKam);
    // otherKam's own chain: a KAM elsewhere, and a member of group 332.
    await createChain(sql, [otherKam]);
    groupThread = await factory.forumThread(CHAIN_GROUP, { title: 'Zweite Kette' });
  });

  describe('GET', () => {
    it('shows kim, KAM of the demo chain, every field and the store count', async ({ as }) => {
      const response = await read(await as('kim'), ids.chainId);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Value.Check(StoreChainReadSchema, body)).toBe(true);
      expect(body).toEqual({
        chain: {
          id: ids.chainId,
          name: 'Beispiel-Markt',
          status: 2,
          headquartersZip: '12345',
          headquartersCity: 'Musterstadt',
          headquartersCountry: 'Deutschland',
          allowPress: true,
          forumThread: expect.any(Number),
          notes: 'Ansprechpartnerin in der Zentrale: Abteilung Nachhaltigkeit.',
          commonStoreInformation: expect.stringContaining('Hintereingang'),
          estimatedStoreCount: 42,
          modificationDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
          regionId: 3,
        },
        storeCount: 1,
      });
    });

    const hidden = {
      forumThread: null,
      notes: null,
      estimatedStoreCount: null,
      regionId: null,
    };
    it.for([
      ['foodsharer (0)', () => roleUsers[0]!, 'refused'],
      ['foodsaver (1)', () => roleUsers[1]!, 'restricted'],
      ['store manager (2)', () => roleUsers[2]!, 'restricted'],
      ['ambassador (3)', () => roleUsers[3]!, 'restricted'],
      ['orga (4)', () => roleUsers[4]!, 'full'],
      ['member of the store-chain group', () => groupMember, 'full'],
      ['admin of the store-chain group', () => groupAdmin, 'full'],
      ['KAM of the chain (kim)', () => ids.users.kim, 'full'],
      ['KAM of another chain', () => otherKam, 'full'],
      ['alice, manager of a store of the chain', () => ids.users.alice, 'restricted'],
    ] as const)('%s sees the chain: %s', async ([_who, user, view], { as }) => {
      const response = await read(await as(user()), ids.chainId);
      if (view === 'refused') {
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ code: 'CHAIN_READ_FORBIDDEN' });
        return;
      }
      expect(response.statusCode).toBe(200);
      expect(Value.Check(StoreChainReadSchema, response.json())).toBe(true);
      const { chain, storeCount } = response.json();
      if (view === 'restricted') {
        expect(chain).toMatchObject(hidden);
        expect(storeCount).toBeNull();
        expect(chain.name).toBe('Beispiel-Markt');
      } else {
        expect(chain.notes).not.toBeNull();
        expect(storeCount).toBe(1);
      }
    });

    it('hides the details from a KAM of another chain who is not in group 332', async ({
      as,
      sql,
      factory,
    }) => {
      const outsider = await createUser(factory, 1);
      const chainId = await createChain(sql, [outsider]);
      const own = await read(await as(outsider), chainId);
      expect(own.json().chain.notes).toBe('Notiz');
      const demo = await read(await as(outsider), ids.chainId);
      expect(demo.json().chain).toMatchObject(hidden);
    });

    it('answers 401 without a session', async ({ anonymous }) => {
      const response = await read(anonymous, ids.chainId);
      expect(response.statusCode).toBe(401);
    });

    it.for(BAD_CHAIN_IDS)('answers 404 for %s', async ([_what, chainId], { as }) => {
      const response = await read(await as('kim'), chainId);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('GET /api/chains/{chainId}/kams', () => {
    it('gives back the KAMs a PATCH set, as user stubs by id', async ({ as, sql }) => {
      const chainId = await createChain(sql);
      const admin = await as(groupAdmin);
      const patched = await patch(admin, chainId, { kams: [groupMember, ids.users.kim] });
      expect(patched.statusCode).toBe(200);
      const response = await readKams(admin, chainId);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Value.Check(StoreChainKamsSchema, body)).toBe(true);
      const kim = { id: ids.users.kim, name: 'Kim', avatar: null, isSleeping: false };
      expect(body).toEqual([kim, stub(groupMember)].sort((a, b) => a.id - b.id));

      expect((await patch(admin, chainId, { kams: [groupMember] })).statusCode).toBe(200);
      expect((await readKams(admin, chainId)).json()).toEqual([stub(groupMember)]);
      expect((await patch(admin, chainId, { kams: [] })).statusCode).toBe(200);
      expect((await readKams(admin, chainId)).json()).toEqual([]);
    });

    it('answers every field as a read after the patch shows it, KAMs changed too', async ({
      as,
      sql,
    }) => {
      const chainId = await createChain(sql);
      const orga = await as(roleUsers[4]!);
      const response = await patch(orga, chainId, {
        name: 'Alle Felder',
        status: 2,
        headquartersZip: '12345',
        headquartersCity: 'Musterstadt',
        headquartersCountry: 'Deutschland',
        allowPress: true,
        forumThread: groupThread,
        notes: 'Notiz',
        commonStoreInformation: 'Hinweis',
        estimatedStoreCount: 7,
        kams: [groupMember],
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual((await read(orga, chainId)).json());
      expect(response.json().chain).toMatchObject({ forumThread: groupThread, notes: 'Notiz' });
      expect(await kamsOf(sql, chainId)).toEqual([groupMember]);
    });

    it.for<[string, () => number, boolean]>([
      ['foodsharer (0)', () => roleUsers[0]!, false],
      ['foodsaver (1)', () => roleUsers[1]!, false],
      ['store manager (2)', () => roleUsers[2]!, false],
      ['ambassador (3)', () => roleUsers[3]!, false],
      ['orga (4)', () => roleUsers[4]!, true],
      ['member of the store-chain group', () => groupMember, true],
      ['admin of the store-chain group', () => groupAdmin, true],
      ['KAM of the chain (kim)', () => ids.users.kim, true],
      ['KAM of another chain, member of group 332', () => otherKam, true],
      ['alice, manager of a store of the chain', () => ids.users.alice, false],
    ])('%s sees the KAMs: %s', async ([_who, user, allowed], { as }) => {
      const response = await readKams(await as(user()), ids.chainId);
      expect(response.statusCode).toBe(allowed ? 200 : 403);
      if (allowed)
        expect(response.json()).toContainEqual(expect.objectContaining({ id: ids.users.kim }));
      else expect(response.json().code).toMatch(/^CHAIN_(READ|KAMS_READ)_FORBIDDEN$/);
    });

    it('shows a KAM outside group 332 their own chain only; a foodsharer KAM none', async ({
      as,
      sql,
      factory,
    }) => {
      const outsider = await createUser(factory, 1);
      const chainId = await createChain(sql, [outsider]);
      const own = await readKams(await as(outsider), chainId);
      expect(own.statusCode).toBe(200);
      expect(own.json()).toEqual([stub(outsider)]);
      expect((await readKams(await as(outsider), ids.chainId)).statusCode).toBe(403);

      const foodsharer = await createUser(factory, 0);
      const theirs = await createChain(sql, [foodsharer]);
      const refused = await readKams(await as(foodsharer), theirs);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'CHAIN_READ_FORBIDDEN' });
    });

    it('answers 401 without a session', async ({ anonymous }) => {
      const response = await readKams(anonymous, ids.chainId);
      expect(response.statusCode).toBe(401);
    });

    it.for(BAD_CHAIN_IDS)('answers 404 for %s', async ([_what, chainId], { as }) => {
      const response = await readKams(await as('kim'), chainId);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('PATCH', () => {
    it('lets kim rename the demo chain and answers with the updated chain', async ({ as }) => {
      const kim = await as('kim');
      const before = (await read(kim, ids.chainId)).json();
      const response = await patch(kim, ids.chainId, {
        name: 'Beispiel-Markt Deutschland',
        headquartersCountry: '',
        estimatedStoreCount: 50,
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Value.Check(StoreChainReadSchema, body)).toBe(true);
      expect(body).toEqual({
        chain: {
          ...before.chain,
          name: 'Beispiel-Markt Deutschland',
          headquartersCountry: '',
          estimatedStoreCount: 50,
          modificationDate: expect.any(String),
        },
        storeCount: 1,
      });
      expect(Date.parse(body.chain.modificationDate)).toBeGreaterThan(
        Date.parse(before.chain.modificationDate),
      );
      expect((await read(kim, ids.chainId)).json()).toEqual(body);
    });

    it.for<[string, () => number, boolean]>([
      ['foodsharer (0)', () => roleUsers[0]!, false],
      ['foodsaver (1)', () => roleUsers[1]!, false],
      ['store manager (2)', () => roleUsers[2]!, false],
      ['ambassador (3)', () => roleUsers[3]!, false],
      ['orga (4)', () => roleUsers[4]!, true],
      ['plain member of the store-chain group', () => groupMember, false],
      ['admin of the store-chain group', () => groupAdmin, true],
      ['KAM of the chain (kim)', () => ids.users.kim, true],
      ['KAM of another chain', () => otherKam, false],
    ])('%s may edit: %s', async ([who, user, allowed], { as, sql }) => {
      const chainId = await createChain(sql);
      const response = await patch(await as(user()), chainId, { name: `Kette von ${who}` });
      expect(response.statusCode).toBe(allowed ? 200 : 403);
      if (!allowed) expect(response.json()).toMatchObject({ code: 'CHAIN_EDIT_FORBIDDEN' });
      expect(await nameOf(sql, chainId)).toBe(
        allowed ? `Kette von ${who}` : `Testkette ${chainCount}`,
      );
    });

    it.for<[string, () => number, boolean]>([
      ['orga', () => roleUsers[4]!, true],
      ['an admin of the store-chain group', () => groupAdmin, true],
      ['a KAM of the chain', () => ids.users.kim, false],
    ])('%s may replace the KAMs: %s', async ([_who, user, allowed], { as, sql }) => {
      const chainId = await createChain(sql);
      const response = await patch(await as(user()), chainId, {
        kams: [groupMember, ids.users.kim],
        notes: 'Neue Notiz',
      });
      // From a KAM the list is ignored, not refused: the other fields are applied.
      expect(response.statusCode).toBe(200);
      expect(response.json().chain.notes).toBe('Neue Notiz');
      expect(await kamsOf(sql, chainId)).toEqual(
        allowed ? [ids.users.kim, groupMember].sort((a, b) => a - b) : [ids.users.kim],
      );
    });

    it('answers a KAM whose patch changes only the KAMs with 400: it changes nothing', async ({
      as,
      sql,
    }) => {
      const chainId = await createChain(sql);
      const response = await patch(await as('kim'), chainId, {
        kams: [groupMember, ids.users.kim],
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'CHAIN_UNCHANGED' });
      expect(await kamsOf(sql, chainId)).toEqual([ids.users.kim]);
    });

    it('lets a KAM send the KAMs unchanged along with a real change', async ({ as, sql }) => {
      const chainId = await createChain(sql);
      const response = await patch(await as('kim'), chainId, {
        kams: [ids.users.kim],
        allowPress: true,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().chain.allowPress).toBe(true);
    });

    it('removes every KAM with an empty list; the former KAM then loses the details', async ({
      as,
      sql,
      factory,
    }) => {
      const outsider = await createUser(factory, 1);
      const chainId = await createChain(sql, [outsider]);
      const response = await patch(await as(groupAdmin), chainId, { kams: [] });
      expect(response.statusCode).toBe(200);
      expect(await kamsOf(sql, chainId)).toEqual([]);
      expect((await read(await as(outsider), chainId)).json().storeCount).toBeNull();
    });

    it.for<[string, () => number]>([
      ['a user outside the store-chain group', () => roleUsers[1]!],
      ['an unknown user', () => 2_000_000_000],
    ])('answers 422 when a KAM would be %s', async ([_what, user], { as, sql }) => {
      const chainId = await createChain(sql);
      const response = await patch(await as(groupAdmin), chainId, {
        kams: [ids.users.kim, user()],
        name: 'Nicht gespeichert',
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ code: 'CHAIN_KAMS_NOT_GROUP_MEMBERS' });
      expect(response.json().detail).toContain(String(user()));
      expect(await kamsOf(sql, chainId)).toEqual([ids.users.kim]);
      expect(await nameOf(sql, chainId)).toBe(`Testkette ${chainCount}`);
    });

    it('takes a thread of the store-chain group forum and refuses any other', async ({
      as,
      sql,
    }) => {
      const chainId = await createChain(sql);
      const kim = await as('kim');
      const ok = await patch(kim, chainId, { forumThread: groupThread });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().chain.forumThread).toBe(groupThread);
      for (const thread of [ids.forumThreadId, 2_000_000_000]) {
        const refused = await patch(kim, chainId, { forumThread: thread });
        expect(refused.statusCode).toBe(422);
        expect(refused.json()).toMatchObject({ code: 'CHAIN_FORUM_THREAD_NOT_IN_GROUP' });
      }
    });

    it('answers 400 to a patch that changes nothing', async ({ as, sql }) => {
      const chainId = await createChain(sql);
      const kim = await as('kim');
      for (const payload of [
        { name: `Testkette ${chainCount}`, status: 1 },
        { kams: [ids.users.kim] },
        { headquartersCountry: '' },
      ]) {
        const response = await patch(kim, chainId, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json()).toMatchObject({ code: 'CHAIN_UNCHANGED' });
      }
    });

    describe('field constraints', () => {
      const a = (n: number) => 'a'.repeat(n);
      it.for<[string, object, boolean]>([
        ['name of 120 characters', { name: a(120) }, true],
        ['name of 121 characters', { name: a(121) }, false],
        ['empty name', { name: '' }, false],
        ['blank name', { name: '   ' }, false],
        ['name with markup', { name: '<b>Markt</b>' }, false],
        ['name with a line break', { name: 'Markt\nNord' }, false],
        ['name with a U+0085 line break', { name: 'Markt\u0085Nord' }, false],
        ['name blank to PostgreSQL (U+001C)', { name: '\u001c' }, false],
        ['name with a NUL character', { name: 'Markt\u0000' }, false],
        ['city with a NUL character', { headquartersCity: 'Köln\u0000' }, false],
        ['country with a NUL character', { headquartersCountry: '\u0000' }, false],
        ['notes with a NUL character', { notes: 'Abholung\u0000' }, false],
        ['common information with a NUL character', { commonStoreInformation: '\u0000' }, false],
        ['zip of 5 characters', { headquartersZip: '54321' }, true],
        ['zip of 6 characters', { headquartersZip: '123456' }, false],
        ['empty zip', { headquartersZip: '' }, false],
        ['city of 50 characters', { headquartersCity: a(50) }, true],
        ['city of 51 characters', { headquartersCity: a(51) }, false],
        ['empty city', { headquartersCity: '' }, false],
        ['country of 50 characters', { headquartersCountry: a(50) }, true],
        ['country of 51 characters', { headquartersCountry: a(51) }, false],
        ['notes of 200 characters', { notes: a(200) }, true],
        ['notes of 201 characters', { notes: a(201) }, false],
        ['estimated store count 0', { estimatedStoreCount: 0 }, true],
        ['estimated store count -1', { estimatedStoreCount: -1 }, false],
        ['status 0', { status: 0 }, true],
        ['status 4', { status: 4 }, true],
        ['status 5', { status: 5 }, false],
        ['status -1', { status: -1 }, false],
        ['status as a string', { status: '2' }, false],
        ['forum thread 0', { forumThread: 0 }, false],
        ['a KAM id twice', { kams: [ids.users.kim, ids.users.kim] }, false],
        ['an unknown field', { kam: [1] }, false],
        ['an empty patch', {}, false],
      ])('%s: accepted %s', async ([_what, payload, accepted], { as, sql }) => {
        const chainId = await createChain(sql);
        const response = await patch(await as(roleUsers[4]!), chainId, payload);
        expect(response.statusCode).toBe(accepted ? 200 : 400);
        if (accepted) expect(response.json().chain).toMatchObject(payload);
        else expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      });
    });

    it('refuses a KAM who is a foodsharer: who may not read a chain may not edit it', async ({
      as,
      sql,
      factory,
    }) => {
      const foodsharer = await createUser(factory, 0);
      const chainId = await createChain(sql, [foodsharer]);
      const kam = await as(foodsharer);
      expect((await read(kam, chainId)).statusCode).toBe(403);
      const response = await patch(kam, chainId, { name: 'Von einer Foodsharerin' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'CHAIN_EDIT_FORBIDDEN' });
      expect(await nameOf(sql, chainId)).toBe(`Testkette ${chainCount}`);
    });

    it('checks a KAM against the chain as a concurrent patch left it', async ({
      app,
      as,
      sql,
      factory,
    }) => {
      const kam = await createUser(factory, 1);
      const chainId = await createChain(sql, [kam]);
      const name = await nameOf(sql, chainId);
      const [admin, former] = [await as(groupAdmin), await as(kam)];
      let removal: ReturnType<typeof patch> | undefined;
      let rename: ReturnType<typeof patch> | undefined;
      // The test holds the chain row, so that both patches arrive before either may write:
      // the admin's removal of the KAM first, the KAM's rename second.
      await app.orm.em.fork().transactional(async (tx) => {
        await tx.execute('select id from store_chains where id = ? for update', [chainId]);
        removal = patch(admin, chainId, { kams: [] });
        await lockWaiters(sql, 1);
        rename = patch(former, chainId, { name: 'Umbenannt nach dem Entzug' });
        await lockWaiters(sql, 2);
      });
      expect((await removal!).statusCode).toBe(200);
      const refused = await rename!;
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'CHAIN_EDIT_FORBIDDEN' });
      expect(await nameOf(sql, chainId)).toBe(name);
      expect(await kamsOf(sql, chainId)).toEqual([]);
    });

    it('answers 400 to the second of two identical concurrent patches', async ({
      app,
      as,
      sql,
    }) => {
      const chainId = await createChain(sql);
      const kim = await as('kim');
      const responses: ReturnType<typeof patch>[] = [];
      await app.orm.em.fork().transactional(async (tx) => {
        await tx.execute('select id from store_chains where id = ? for update', [chainId]);
        responses.push(patch(kim, chainId, { status: 4 }));
        await lockWaiters(sql, 1);
        responses.push(patch(kim, chainId, { status: 4 }));
        await lockWaiters(sql, 2);
      });
      const statuses = (await Promise.all(responses)).map((response) => response.statusCode);
      expect(statuses).toEqual([200, 400]);
    });

    it('answers 404 before 403: an unknown chain is 404 even for a foodsharer', async ({ as }) => {
      const foodsharer = await as(roleUsers[0]!);
      expect((await patch(foodsharer, 999_999, { name: 'x' })).statusCode).toBe(404);
      expect((await patch(foodsharer, ids.chainId, { name: 'x' })).statusCode).toBe(403);
    });

    it.for<[string, string]>([
      ['a leading zero', `0${ids.chainId}`],
      ['letters', 'abc'],
      ['an id beyond 32 bits', '4294967296'],
    ])('answers 404 for %s', async ([_what, chainId], { as }) => {
      const response = await patch(await as(roleUsers[4]!), chainId, { name: 'x' });
      expect(response.statusCode).toBe(404);
    });

    it('answers 401 without a session', async ({ sql, anonymous }) => {
      const chainId = await createChain(sql);
      const response = await patch(anonymous, chainId, { name: 'Anonym' });
      expect(response.statusCode).toBe(401);
      expect(await nameOf(sql, chainId)).toBe(`Testkette ${chainCount}`);
    });

    it('refuses a patch without the CSRF token', async ({ as, sql }) => {
      const chainId = await createChain(sql);
      const response = await patch((await as('kim')).withoutCsrf(), chainId, { name: 'Ohne' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'CSRF_FAILED' });
      expect(await nameOf(sql, chainId)).toBe(`Testkette ${chainCount}`);
    });

    it('keeps the chain as it was when replacing the KAMs fails', async ({ as, sql }) => {
      const chainId = await createChain(sql);
      const name = await nameOf(sql, chainId);
      await sql(`create function fail_kam_insert() returns trigger language plpgsql as $$
        begin raise exception 'kam insert refused by test'; end $$`);
      await sql(`create trigger fail_kam_insert before insert on store_chain_kams
        for each row when (new.chain_id = ${chainId}) execute function fail_kam_insert()`);
      try {
        const response = await patch(await as(groupAdmin), chainId, {
          name: 'Halb gespeichert',
          kams: [groupMember],
        });
        expect(response.statusCode).toBe(500);
        expect(response.body).not.toContain('refused by test');
      } finally {
        await sql('drop trigger fail_kam_insert on store_chain_kams');
        await sql('drop function fail_kam_insert');
      }
      expect(await nameOf(sql, chainId)).toBe(name);
      expect(await kamsOf(sql, chainId)).toEqual([ids.users.kim]);
    });
  });
});

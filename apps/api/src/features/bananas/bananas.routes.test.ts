import { WellKnownUnit } from '@foodshare/domain';
import { type BananaList, BananaListSchema, BananaSchema } from '@foodshare/schemas';
import { Value } from 'typebox/value';
import {
  type ApiClient,
  describe,
  expect,
  ids,
  it,
  type Sql,
} from '../../test-support/fixtures.ts';
import {
  createManyUsers,
  expectPagesOf,
  INVALID_PAGE_QUERIES,
  VALID_PAGE_QUERIES,
} from '../../test-support/paging.ts';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const MESSAGE = 'Danke für die zuverlässige Hilfe bei jeder Abholung! '.repeat(3).slice(0, 100);

async function bananaCount(sql: Sql, recipientId: number, senderId: number): Promise<number> {
  const rows = await sql<{ count: string }[]>(
    'select count(*) as count from bananas where recipient_id = ? and sender_id = ?',
    [recipientId, senderId],
  );
  return Number(rows[0]!.count);
}

async function createBanana(sql: Sql, recipientId: number, senderId: number): Promise<void> {
  await sql('insert into bananas (recipient_id, sender_id, message) values (?, ?, ?)', [
    recipientId,
    senderId,
    MESSAGE,
  ]);
}

const give = (
  client: ApiClient,
  recipientId: number | string,
  payload: unknown = { message: MESSAGE },
) => client.post(`/api/users/${recipientId}/bananas`, payload);

const remove = (client: ApiClient, recipientId: number | string, senderId: number | string) =>
  client.delete(`/api/users/${recipientId}/bananas/${senderId}`);

const list = (client: ApiClient, userId: number | string) =>
  client.get(`/api/users/${userId}/bananas`);

describe('bananas: give, remove and list', () => {
  describe('POST /api/users/{recipientId}/bananas', () => {
    it('gives a banana and answers 200 with the sender as user', async ({ as }) => {
      const response = await give(await as('alice'), ids.users.kim);
      expect(response.statusCode).toBe(200);
      const banana = response.json();
      expect(Value.Check(BananaSchema, banana)).toBe(true);
      expect(banana).toEqual({
        message: MESSAGE,
        user: {
          id: ids.users.alice,
          name: 'Alice',
          avatar: `/api/uploads/${ids.avatarUploadId}`,
          isSleeping: false,
        },
        time: expect.stringMatching(ISO),
      });
      const received = (await list(await as('bob'), ids.users.kim)).json();
      expect(received[0]).toEqual(banana);
    });

    it.for<[string, string, number]>([
      ['99 characters', 'b'.repeat(99), 422],
      ['100 characters', 'b'.repeat(100), 200],
      ['99 characters padded with spaces', `  ${'b'.repeat(99)}  `, 422],
      // White space to PostgreSQL (ICU), which String.prototype.trim would keep.
      ['99 characters padded with U+0085 and U+001C', `\u0085${'b'.repeat(99)}\u001c`, 422],
      ['99 emoji (198 UTF-16 units)', '🍌'.repeat(99), 422],
      ['100 emoji', '🍌'.repeat(100), 200],
      ['an empty message', '', 422],
    ])(
      'answers a message of %s with %i',
      async ([_what, message, status], { as, sql, factory }) => {
        const recipient = await factory.user();
        const response = await give(await as('dana'), recipient, { message });
        expect(response.statusCode).toBe(status);
        if (status === 422) {
          expect(response.json()).toMatchObject({ status: 422, code: 'BANANA_MESSAGE_TOO_SHORT' });
        } else {
          expect(response.json().message).toBe(message.trim());
        }
        expect(await bananaCount(sql, recipient, ids.users.dana)).toBe(status === 200 ? 1 : 0);
      },
    );

    it.for<[string, object]>([
      ['no message', {}],
      ['a message of 5001 characters', { message: 'b'.repeat(5001) }],
      ['a message that is not a string', { message: 100 }],
      ['a message with a NUL character', { message: `${MESSAGE}\u0000` }],
    ])('answers 400 for %s', async ([_what, payload], { as, factory }) => {
      const recipient = await factory.user();
      const response = await give(await as('dana'), recipient, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it.for<[string, number, boolean, boolean]>([
      ['verified foodsharer (0)', 0, true, true],
      ['verified foodsaver (1)', 1, true, true],
      ['verified store manager (2)', 2, true, true],
      ['verified ambassador (3)', 3, true, true],
      ['orga (4)', 4, true, true],
      ['unverified foodsharer (0)', 0, false, false],
      ['unverified foodsaver (1)', 1, false, false],
      ['unverified store manager (2)', 2, false, false],
      ['unverified ambassador (3)', 3, false, false],
      ['orga (4) without the verified flag', 4, false, true],
    ])('a %s may give one: %s', async ([_who, role, verified, allowed], { as, sql, factory }) => {
      const sender = await factory.user({ role, verified });
      const recipient = await factory.user();
      const response = await give(await as(sender), recipient);
      expect(response.statusCode).toBe(allowed ? 200 : 403);
      if (!allowed) expect(response.json()).toMatchObject({ code: 'BANANA_USER_NOT_VERIFIED' });
      expect(await bananaCount(sql, recipient, sender)).toBe(allowed ? 1 : 0);
    });

    it.for<[string, number, boolean, boolean]>([
      ['an unverified foodsaver', 1, false, false],
      ['an unverified orga member', 4, false, true],
      ['a verified foodsharer', 0, true, true],
    ])('may be given to %s: %s', async ([_who, role, verified, allowed], { as, factory }) => {
      const recipient = await factory.user({ role, verified });
      const response = await give(await as('dana'), recipient);
      expect(response.statusCode).toBe(allowed ? 200 : 403);
      if (!allowed) expect(response.json()).toMatchObject({ code: 'BANANA_USER_NOT_VERIFIED' });
    });

    it('refuses a banana to oneself, even with a short message', async ({ as, sql }) => {
      for (const message of [MESSAGE, 'kurz']) {
        const response = await give(await as('kim'), ids.users.kim, { message });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ code: 'BANANA_FOR_SELF' });
      }
      expect(await bananaCount(sql, ids.users.kim, ids.users.kim)).toBe(0);
    });

    it('refuses carla, who is not verified, and a second banana to the same recipient', async ({
      as,
      sql,
    }) => {
      const carla = await give(await as('carla'), ids.users.alice);
      expect(carla.statusCode).toBe(403);
      expect(carla.json()).toMatchObject({ code: 'BANANA_USER_NOT_VERIFIED' });
      const again = await give(await as('alice'), ids.users.bob);
      expect(again.statusCode).toBe(403);
      expect(again.json()).toMatchObject({ code: 'BANANA_ALREADY_GIVEN' });
      expect(await bananaCount(sql, ids.users.bob, ids.users.alice)).toBe(1);
    });

    it('stores one banana for simultaneous gives, and answers the others 403', async ({
      as,
      sql,
      factory,
    }) => {
      const recipient = await factory.user();
      const dana = await as('dana');
      const responses = await Promise.all(Array.from({ length: 6 }, () => give(dana, recipient)));
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses).toEqual([200, 403, 403, 403, 403, 403]);
      for (const response of responses.filter((r) => r.statusCode === 403)) {
        expect(response.json()).toMatchObject({ code: 'BANANA_ALREADY_GIVEN' });
      }
      expect(await bananaCount(sql, recipient, ids.users.dana)).toBe(1);
    });

    it('needs the CSRF token, and a session', async ({ as, sql, factory, anonymous }) => {
      const recipient = await factory.user();
      const forged = await give((await as('dana')).withoutCsrf(), recipient, { message: MESSAGE });
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toMatchObject({ code: 'CSRF_FAILED' });
      const unauthenticated = await give(anonymous, recipient);
      expect(unauthenticated.statusCode).toBe(401);
      expect(unauthenticated.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(await bananaCount(sql, recipient, ids.users.dana)).toBe(0);
    });

    it('answers 404 for a deactivated recipient', async ({ as, factory }) => {
      const recipient = await factory.user({ activated: false });
      expect((await give(await as('dana'), recipient)).statusCode).toBe(404);
    });

    it.for<[string]>([['999999'], ['0'], [`0${ids.users.kim}`], ['abc'], ['4294967296'], ['-5']])(
      'answers 404 for recipient %s',
      async ([recipientId], { as }) => {
        const response = await give(await as('dana'), recipientId);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
      },
    );
  });

  describe('DELETE /api/users/{recipientId}/bananas/{senderId}', () => {
    it.for([
      ['the recipient', 'recipient', true],
      ['the sender', 'sender', true],
      ['orga, admin of IT support (387)', 'orga', true],
      ['dana, an ambassador', 'dana', false],
      ['kim, unrelated', 'kim', false],
    ] as const)('%s may remove it: %s', async ([_who, who, allowed], { as, sql, factory }) => {
      const recipient = await factory.user();
      const sender = await factory.user();
      await createBanana(sql, recipient, sender);
      const client =
        who === 'recipient'
          ? await as(recipient)
          : who === 'sender'
            ? await as(sender)
            : await as(who);
      const response = await remove(client, recipient, sender);
      expect(response.statusCode).toBe(allowed ? 200 : 403);
      if (allowed) expect(response.json()).toEqual({});
      else expect(response.json()).toMatchObject({ code: 'BANANA_DELETE_FORBIDDEN' });
      expect(await bananaCount(sql, recipient, sender)).toBe(allowed ? 0 : 1);
    });

    it.for<[string, number]>([
      ['foodsharer (0)', 0],
      ['foodsaver (1)', 1],
      ['store manager (2)', 2],
      ['ambassador (3)', 3],
      ['orga (4) outside IT support', 4],
    ])('refuses a %s without relation', async ([_who, role], { as, sql, factory }) => {
      const response = await remove(
        await as(await factory.user({ role })),
        ids.users.alice,
        ids.users.kim,
      );
      expect(response.statusCode).toBe(403);
      expect(await bananaCount(sql, ids.users.alice, ids.users.kim)).toBe(1);
    });

    it('lets an IT support admin of any role remove it', async ({ as, sql, factory }) => {
      const admin = await factory.user({ role: 1 });
      await factory.addAdmin(WellKnownUnit.ItSupport, admin);
      const recipient = await factory.user();
      const sender = await factory.user();
      await createBanana(sql, recipient, sender);
      expect((await remove(await as(admin), recipient, sender)).statusCode).toBe(200);
    });

    it('removes it from the received list; a second removal is 404', async ({ as }) => {
      const bob = await as('bob');
      expect((await remove(bob, ids.users.alice, ids.users.bob)).statusCode).toBe(200);
      const received = (await list(bob, ids.users.alice)).json<BananaList>();
      expect(received.map((banana) => banana.user.id)).not.toContain(ids.users.bob);
      const again = await remove(bob, ids.users.alice, ids.users.bob);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toMatchObject({ code: 'NOT_FOUND' });
    });

    it('answers 403 to a stranger before looking for the banana', async ({ as }) => {
      // The path names the recipient first: kim never gave dana a banana.
      const response = await remove(await as('carla'), ids.users.kim, ids.users.dana);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'BANANA_DELETE_FORBIDDEN' });
    });

    it('answers 404 to the recipient, the sender and IT support when there is no such banana', async ({
      as,
    }) => {
      for (const name of ['kim', 'dana', 'orga'] as const) {
        const response = await remove(await as(name), ids.users.kim, ids.users.dana);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
      }
    });

    it('needs a session and the CSRF token', async ({ as, sql, anonymous }) => {
      const unauthenticated = await remove(anonymous, ids.users.alice, ids.users.kim);
      expect(unauthenticated.statusCode).toBe(401);
      expect(unauthenticated.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      const forged = await remove(
        (await as('alice')).withoutCsrf(),
        ids.users.alice,
        ids.users.kim,
      );
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toMatchObject({ code: 'CSRF_FAILED' });
      expect(await bananaCount(sql, ids.users.alice, ids.users.kim)).toBe(1);
    });

    it.for<[string, string]>([
      ['abc', '1'],
      ['0', '1'],
      ['4294967296', '1'],
      ['1', '4294967296'],
      ['1', 'x'],
      ['2.0', '6'],
      ['2', '0x6'],
    ])('answers 404 for recipient %s and sender %s', async ([recipientId, senderId], { as }) => {
      expect((await remove(await as('orga'), recipientId, senderId)).statusCode).toBe(404);
    });
  });

  describe('GET /api/users/{recipientId}/bananas', () => {
    it('lists the bananas received, newest first, with the senders', async ({ as }) => {
      const response = await list(await as('carla'), ids.users.alice);
      expect(response.statusCode).toBe(200);
      const bananas = response.json<BananaList>();
      expect(Value.Check(BananaListSchema, bananas)).toBe(true);
      const senders = bananas.map((banana) => banana.user.id);
      expect(senders).toEqual(expect.arrayContaining([ids.users.kim, ids.users.dana]));
      const times = bananas.map((banana) => banana.time);
      expect(times).toEqual([...times].sort().reverse());
      expect(bananas.find((banana) => banana.user.id === ids.users.kim)).toMatchObject({
        user: { name: 'Kim', avatar: null, isSleeping: false },
      });
    });

    it('lists none for a user without bananas', async ({ as, factory }) => {
      const response = await list(await as('alice'), await factory.user());
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
    });

    it('pages with limit and offset, newest first, 100 by default', async ({
      app,
      as,
      sql,
      factory,
    }) => {
      const recipient = await factory.user();
      const senders = await createManyUsers(app.orm, 'Spender', 101);
      // The n-th sender's banana is n minutes old: newest first is the order of the ids.
      await sql(
        `insert into bananas (recipient_id, sender_id, message, created_at)
         select ?, s, ?, now() - make_interval(mins => s - ?) from unnest(?::int[]) as s`,
        [recipient, MESSAGE, senders[0]!, `{${senders.join(',')}}`],
      );
      const alice = await as('alice');
      const page = async (query: string) => {
        const response = await alice.get(`/api/users/${recipient}/bananas?${query}`);
        expect(response.statusCode).toBe(200);
        return response.json<BananaList>().map((banana) => banana.user.id);
      };
      await expectPagesOf(senders, page);
    });

    it.for(INVALID_PAGE_QUERIES)('answers 400 for %s', async ([query], { as }) => {
      const response = await (
        await as('carla')
      ).get(`/api/users/${ids.users.alice}/bananas?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it.for(VALID_PAGE_QUERIES)('accepts %s', async ([query], { as }) => {
      const response = await (
        await as('carla')
      ).get(`/api/users/${ids.users.alice}/bananas?${query}`);
      expect(response.statusCode).toBe(200);
    });

    it('answers 401 without a session and 404 for unknown users', async ({
      as,
      factory,
      anonymous,
    }) => {
      expect((await list(anonymous, ids.users.alice)).statusCode).toBe(401);
      const alice = await as('alice');
      for (const userId of ['999999', '0', 'abc', '4294967296', '2.0', '0x2', '2e0']) {
        expect((await list(alice, userId)).statusCode).toBe(404);
      }
      expect((await list(alice, await factory.user({ activated: false }))).statusCode).toBe(404);
    });
  });
});

import {
  type ConversationMessageList,
  ConversationMessageListSchema,
  ConversationReadStateSchema,
  ConversationSchema,
  MessageSchema,
} from '@foodshare/schemas';
import { Value } from 'typebox/value';
import {
  type ApiClient,
  describe,
  expect,
  ids,
  it,
  type Sql,
  test,
} from '../../test-support/fixtures.ts';
import { lockWaiters } from '../../test-support/sql.ts';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function memberStates(sql: Sql, conversationId: number) {
  const rows = await sql<{ user_id: number; unread: boolean; last_read_at: string | null }[]>(
    `select user_id, unread, last_read_at from conversation_members
      where conversation_id = ? order by user_id`,
    [conversationId],
  );
  return Object.fromEntries(
    rows.map((row) => [
      row.user_id,
      {
        unread: row.unread,
        lastReadAt: row.last_read_at === null ? null : new Date(row.last_read_at).toISOString(),
      },
    ]),
  );
}

async function messageCount(sql: Sql, conversationId: number): Promise<number> {
  const rows = await sql<{ count: string }[]>(
    'select count(*) as count from messages where conversation_id = ?',
    [conversationId],
  );
  return Number(rows[0]!.count);
}

const send = (client: ApiClient, conversationId: number | string, payload: unknown) =>
  client.post(`/api/conversations/${conversationId}/messages`, payload);

const markRead = (client: ApiClient, conversationId: number | string, query = '?read=1') =>
  client.post(`/api/conversations/${conversationId}/readStatus${query}`);

const read = (client: ApiClient, path: string) => client.get(`/api/conversations/${path}`);

describe('conversations: messages, read status, conversation', () => {
  let roleUsers: number[] = [];

  test.beforeAll(async ({ factory }) => {
    roleUsers = await factory.userOfEachRole();
  });

  describe('POST /api/conversations/{conversationId}/messages', () => {
    it('stores a trimmed message, answers 200, and marks it unread for the others only', async ({
      as,
      sql,
      factory,
    }) => {
      const { alice, bob, carla } = ids.users;
      const conversation = await factory.conversation([alice, bob, carla]);
      const before = await memberStates(sql, conversation);
      const response = await send(await as('bob'), conversation, { body: '  Bin dabei!  \n' });
      expect(response.statusCode).toBe(200);
      const message = response.json();
      expect(Value.Check(MessageSchema, message)).toBe(true);
      expect(message).toEqual({
        id: expect.any(Number),
        body: 'Bin dabei!',
        sentAt: expect.stringMatching(ISO),
        authorId: bob,
      });
      expect(await memberStates(sql, conversation)).toEqual({
        [alice]: { unread: true, lastReadAt: before[alice]!.lastReadAt },
        [bob]: { unread: false, lastReadAt: message.sentAt },
        [carla]: { unread: true, lastReadAt: before[carla]!.lastReadAt },
      });
      const listed = (await read(await as('alice'), `${conversation}/messages`)).json();
      expect(listed[0]).toMatchObject({ id: message.id, body: 'Bin dabei!', authorId: bob });
    });

    it('trims all white space PostgreSQL counts, U+0085 and U+001C included', async ({ as }) => {
      const response = await send(await as('bob'), ids.conversationId, {
        body: '\u0085\u001c Bin dabei!\u2007\u0085',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ body: 'Bin dabei!' });
    });

    it('sends into the demo conversation for each member', async ({ as }) => {
      for (const name of ['alice', 'bob', 'carla'] as const) {
        const response = await send(await as(name), ids.conversationId, {
          body: `Hallo von ${name}`,
        });
        expect(response.statusCode).toBe(200);
      }
    });

    it.for<[string, number]>([
      ['foodsharer (0)', 0],
      ['foodsaver (1)', 1],
      ['store manager (2)', 2],
      ['ambassador (3)', 3],
      ['orga (4)', 4],
    ])('refuses a %s who is not a member with 403', async ([_who, role], { as }) => {
      const response = await send(await as(roleUsers[role]!), ids.conversationId, {
        body: 'Hallo?',
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'CONVERSATION_MEMBERS_ONLY' });
    });

    it.for([
      ['kim, member of another conversation of alice', 'kim'],
      ['dana, ambassador of the members region', 'dana'],
      ['orga', 'orga'],
    ] as const)('refuses %s', async ([_who, name], { as, sql }) => {
      const before = await messageCount(sql, ids.conversationId);
      const response = await send(await as(name), ids.conversationId, { body: 'Hallo?' });
      expect(response.statusCode).toBe(403);
      expect(await messageCount(sql, ids.conversationId)).toBe(before);
    });

    it('stores a send with a clientKey once and answers a repeat with 200 and the same message', async ({
      as,
      sql,
      factory,
    }) => {
      const conversation = await factory.conversation([ids.users.alice, ids.users.bob]);
      const bob = await as('bob');
      const payload = { body: 'Nur einmal bitte', clientKey: 'a1b2c3d4e5f6' };
      const first = await send(bob, conversation, payload);
      expect(first.statusCode).toBe(200);
      const repeat = await send(bob, conversation, payload);
      expect(repeat.statusCode).toBe(200);
      expect(Value.Check(MessageSchema, repeat.json())).toBe(true);
      expect(repeat.json()).toEqual(first.json());
      expect(await messageCount(sql, conversation)).toBe(1);

      // The key is per conversation and sender.
      const alice = await send(await as('alice'), conversation, payload);
      expect(alice.statusCode).toBe(200);
      expect(alice.json().id).not.toBe(first.json().id);
      expect(await messageCount(sql, conversation)).toBe(2);
    });

    it('answers the same clientKey with another text with the stored message', async ({
      as,
      sql,
      factory,
    }) => {
      const conversation = await factory.conversation([ids.users.alice, ids.users.bob]);
      const bob = await as('bob');
      const first = await send(bob, conversation, { body: 'Erste', clientKey: '00000000000f' });
      const other = await send(bob, conversation, { body: 'Zweite', clientKey: '00000000000f' });
      expect(other.statusCode).toBe(200);
      expect(other.json()).toEqual(first.json());
      expect(other.json()).toMatchObject({ body: 'Erste' });
      expect(await messageCount(sql, conversation)).toBe(1);
    });

    it('stores one message for simultaneous sends with the same clientKey', async ({
      as,
      sql,
      factory,
    }) => {
      const conversation = await factory.conversation([ids.users.alice, ids.users.bob]);
      const bob = await as('bob');
      const payload = { body: 'Wackeliges Netz', clientKey: 'feedfacecafe' };
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => send(bob, conversation, payload)),
      );
      expect(responses.map((response) => response.statusCode)).toEqual(Array(6).fill(200));
      expect(new Set(responses.map((response) => response.json<{ id: number }>().id)).size).toBe(1);
      expect(await messageCount(sql, conversation)).toBe(1);
    });

    it('answers a send that waited for the lock behind one with the same clientKey with the stored message', async ({
      app,
      as,
      sql,
      factory,
    }) => {
      const conversation = await factory.conversation([ids.users.alice, ids.users.bob]);
      const bob = await as('bob');
      const payload = { body: 'Zweimal losgeschickt', clientKey: '0123456789ab' };
      let sends: ReturnType<typeof send>[] = [];
      // Both sends start their statement while the test holds the conversation: the one that
      // gets the lock second began before the first committed, so its snapshot cannot see the
      // stored message, and it must find it after the statement.
      await app.orm.em.fork().transactional(async (tx) => {
        await tx.execute('select id from conversations where id = ? for no key update', [
          conversation,
        ]);
        sends = [send(bob, conversation, payload), send(bob, conversation, payload)];
        await lockWaiters(sql, 2);
      });
      const responses = await Promise.all(sends);
      expect(responses.map((response) => response.statusCode)).toEqual([200, 200]);
      const [first, second] = responses.map((response) => response.json<{ id: number }>());
      expect(second).toEqual(first);
      expect(await messageCount(sql, conversation)).toBe(1);
    });

    it.for([
      ['an empty body', { body: '' }],
      ['a blank body', { body: ' \n\t ' }],
      // PostgreSQL cannot store U+0000 (error 22021): refused before it reaches SQL.
      ['a body with a NUL character', { body: 'Hi\u0000there' }],
      ['a body that is only NUL', { body: '\u0000' }],
      // Blank to the messages_body_check under an ICU collation, though not to JS `\s`.
      ['a body of U+0085 (next line)', { body: '\u0085' }],
      ['a body of U+001C..U+001F', { body: '\u001c\u001d\u001e\u001f' }],
      ['a body of no-break spaces', { body: '\u00a0\u2007\u202f' }],
      ['a clientKey with a NUL character', { body: 'Hi', clientKey: 'a1b2c3d4e5f\u0000' }],
      ['no body', {}],
      ['a body that is a number', { body: 5 }],
      ['a body of 10 001 characters', { body: 'm'.repeat(10_001) }],
      ['a clientKey in upper case', { body: 'Hi', clientKey: 'A1B2C3D4E5F6' }],
      ['a clientKey of 11 characters', { body: 'Hi', clientKey: 'a1b2c3d4e5f' }],
    ])('answers 400 VALIDATION_FAILED for %s', async ([_what, payload], { as, sql }) => {
      const before = await messageCount(sql, ids.conversationId);
      const response = await send(await as('alice'), ids.conversationId, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(await messageCount(sql, ids.conversationId)).toBe(before);
    });

    it('accepts a body of 10 000 characters', async ({ as }) => {
      const response = await send(await as('alice'), ids.conversationId, {
        body: 'm'.repeat(10_000),
      });
      expect(response.statusCode).toBe(200);
    });

    it('needs the CSRF token, and a session', async ({ as, sql, anonymous }) => {
      const before = await messageCount(sql, ids.conversationId);
      const forged = await send((await as('alice')).withoutCsrf(), ids.conversationId, {
        body: 'x',
      });
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toMatchObject({ code: 'CSRF_FAILED' });
      const unauthenticated = await send(anonymous, ids.conversationId, { body: 'x' });
      expect(unauthenticated.statusCode).toBe(401);
      expect(await messageCount(sql, ids.conversationId)).toBe(before);
    });

    it('accepts leading zeros, which `\\d+` allows', async ({ as }) => {
      const response = await send(await as('alice'), `00${ids.conversationId}`, { body: 'Null' });
      expect(response.statusCode).toBe(200);
    });

    it.for<[string]>([['999999'], ['0']])(
      'answers 403 for conversation %s, which does not exist, as for someone else’s',
      async ([conversationId], { as, sql }) => {
        const before = await sql<{ count: string }[]>('select count(*) as count from messages');
        const response = await send(await as('alice'), conversationId, { body: 'Hallo' });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ code: 'CONVERSATION_MEMBERS_ONLY' });
        expect(await sql('select count(*) as count from messages')).toEqual(before);
      },
    );

    it.for<[string]>([['abc'], ['4294967296'], ['1a'], ['-1']])(
      'answers 404 for conversation id %s, which names no conversation',
      async ([conversationId], { as }) => {
        const response = await send(await as('alice'), conversationId, { body: 'Hallo' });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
      },
    );

    it('leaves no message behind when marking the others unread fails', async ({
      as,
      sql,
      factory,
    }) => {
      const conversation = await factory.conversation([ids.users.alice, ids.users.bob]);
      await sql(`create function fail_unread() returns trigger language plpgsql as $$
        begin raise exception 'unread update failed'; end $$`);
      await sql(`create trigger fail_unread before update on conversation_members
        for each row when (new.conversation_id = ${conversation}) execute function fail_unread()`);
      try {
        const response = await send(await as('alice'), conversation, {
          body: 'Geht verloren',
          clientKey: 'abcdefabcdef',
        });
        expect(response.statusCode).toBe(500);
        expect(response.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
        expect(JSON.stringify(response.json())).not.toContain('unread update failed');
        expect(await messageCount(sql, conversation)).toBe(0);
      } finally {
        await sql('drop trigger fail_unread on conversation_members');
        await sql('drop function fail_unread()');
      }
      // The key was not used up by the failed attempt.
      const retry = await send(await as('alice'), conversation, {
        body: 'Geht verloren',
        clientKey: 'abcdefabcdef',
      });
      expect(retry.statusCode).toBe(200);
    });
  });

  describe('POST /api/conversations/{conversationId}/readStatus', () => {
    it('marks read and unread for the caller alone', async ({ as, sql, factory }) => {
      const { alice, bob, carla } = ids.users;
      const conversation = await factory.conversation([alice, bob, carla]);
      await send(await as('alice'), conversation, { body: 'Neu' });
      const before = await memberStates(sql, conversation);
      expect(before[carla]!.unread).toBe(true);

      const carlaClient = await as('carla');
      const marked = await markRead(carlaClient, conversation, '?read=1');
      expect(marked.statusCode).toBe(200);
      expect(Value.Check(ConversationReadStateSchema, marked.json())).toBe(true);
      expect(marked.json()).toEqual({
        conversationId: conversation,
        hasUnread: false,
        lastReadAt: expect.stringMatching(ISO),
      });
      const after = await memberStates(sql, conversation);
      expect(after[carla]).toEqual({ unread: false, lastReadAt: marked.json().lastReadAt });
      expect(after[bob]).toEqual(before[bob]);
      expect(after[alice]).toEqual(before[alice]);

      const unread = await markRead(carlaClient, conversation, '?read=0');
      expect(unread.statusCode).toBe(200);
      expect(unread.json()).toEqual({
        conversationId: conversation,
        hasUnread: true,
        lastReadAt: marked.json().lastReadAt,
      });
      const conversationView = (await read(carlaClient, String(conversation))).json();
      expect(conversationView).toMatchObject({ hasUnread: true });
      expect((await read(await as('alice'), String(conversation))).json()).toMatchObject({
        hasUnread: false,
      });
    });

    it.for<[string]>([[''], ['?read=0'], ['?read=2'], ['?read=true'], ['?read='], ['?read=yes']])(
      'marks unread for `%s`: only read=1 reads',
      async ([query], { as, sql, factory }) => {
        const conversation = await factory.conversation([ids.users.alice, ids.users.bob]);
        const bob = await as('bob');
        expect((await markRead(bob, conversation, '?read=1')).json()).toMatchObject({
          hasUnread: false,
        });
        const response = await markRead(bob, conversation, query);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ hasUnread: true });
        expect((await memberStates(sql, conversation))[ids.users.bob]).toMatchObject({
          unread: true,
        });
        expect((await memberStates(sql, conversation))[ids.users.alice]).toMatchObject({
          unread: false,
        });
      },
    );

    it.for<[string, number]>([
      ['foodsharer (0)', 0],
      ['foodsaver (1)', 1],
      ['store manager (2)', 2],
      ['ambassador (3)', 3],
      ['orga (4)', 4],
    ])('refuses a %s who is not a member with 403', async ([_who, role], { as }) => {
      const response = await markRead(await as(roleUsers[role]!), ids.conversationId);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'CONVERSATION_MEMBERS_ONLY' });
    });

    it('needs the CSRF token, and a session', async ({ as, sql, anonymous }) => {
      const before = await memberStates(sql, ids.conversationId);
      const forged = await markRead(
        (await as('carla')).withoutCsrf(),
        ids.conversationId,
        '?read=1',
      );
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toMatchObject({ code: 'CSRF_FAILED' });
      expect((await markRead(anonymous, ids.conversationId)).statusCode).toBe(401);
      expect(await memberStates(sql, ids.conversationId)).toEqual(before);
    });

    it.for<[string]>([['999999'], ['0']])(
      'answers 403 for conversation %s, which does not exist',
      async ([conversationId], { as }) => {
        const response = await markRead(await as('alice'), conversationId);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ code: 'CONVERSATION_MEMBERS_ONLY' });
      },
    );

    it.for<[string]>([['abc'], ['4294967296']])(
      'answers 404 for conversation id %s, which names no conversation',
      async ([conversationId], { as }) => {
        const response = await markRead(await as('alice'), conversationId);
        expect(response.statusCode).toBe(404);
      },
    );
  });

  describe('GET /api/conversations/{conversationId}', () => {
    it('shows the members and the caller’s own read state', async ({ as }) => {
      const response = await read(await as('carla'), String(ids.conversationId));
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Value.Check(ConversationSchema, body)).toBe(true);
      expect(body).toMatchObject({ id: ids.conversationId, name: 'Abholung Samstag' });
      expect(body.members).toEqual(
        expect.arrayContaining([
          {
            id: ids.users.alice,
            name: 'Alice',
            avatar: `/api/uploads/${ids.avatarUploadId}`,
            isSleeping: false,
          },
          { id: ids.users.bob, name: 'Bob', avatar: null, isSleeping: false },
          { id: ids.users.carla, name: 'Carla', avatar: null, isSleeping: false },
        ]),
      );
      expect(body.members).toHaveLength(3);
    });

    it.for([
      ['kim', 'kim', 403],
      ['orga', 'orga', 403],
      ['bob', 'bob', 200],
    ] as const)('%s: %i', async ([_who, name, status], { as }) => {
      const response = await read(await as(name), String(ids.conversationId));
      expect(response.statusCode).toBe(status);
      if (status === 403)
        expect(response.json()).toMatchObject({ code: 'CONVERSATION_MEMBERS_ONLY' });
    });

    it('answers 401 without a session, 403 for an unknown conversation, 404 for bad ids', async ({
      as,
      anonymous,
    }) => {
      expect((await read(anonymous, String(ids.conversationId))).statusCode).toBe(401);
      expect((await read(await as('alice'), '999999')).statusCode).toBe(403);
      expect((await read(await as('alice'), '0')).statusCode).toBe(403);
      for (const id of ['abc', '4294967296']) {
        expect((await read(await as('alice'), id)).statusCode).toBe(404);
      }
    });
  });

  describe('GET /api/conversations/{conversationId}/messages', () => {
    it('lists messages newest first with their authors, paged', async ({ as, factory }) => {
      const { alice, bob } = ids.users;
      const conversation = await factory.conversation([alice, bob]);
      const aliceClient = await as('alice');
      const sent = [];
      for (const body of ['eins', 'zwei', 'drei']) {
        sent.push((await send(aliceClient, conversation, { body })).json());
      }
      const response = await read(await as('bob'), `${conversation}/messages`);
      expect(response.statusCode).toBe(200);
      const body = response.json<ConversationMessageList>();
      expect(Value.Check(ConversationMessageListSchema, body)).toBe(true);
      expect(body.map((message) => message.body)).toEqual(['drei', 'zwei', 'eins']);
      expect(body[0]).toEqual({
        ...sent[2],
        author: {
          id: alice,
          name: 'Alice',
          avatar: `/api/uploads/${ids.avatarUploadId}`,
          isSleeping: false,
        },
      });
      const page = (
        await read(aliceClient, `${conversation}/messages?limit=1&offset=1`)
      ).json<ConversationMessageList>();
      expect(page.map((message) => message.body)).toEqual(['zwei']);
    });

    it('shows the demo conversation to its members', async ({ as }) => {
      const response = await read(await as('carla'), `${ids.conversationId}/messages?limit=200`);
      expect(response.statusCode).toBe(200);
      const times = response.json<ConversationMessageList>().map((message) => message.sentAt);
      expect(times).toEqual([...times].sort().reverse());
    });

    it.for<[string]>([['?limit=0'], ['?limit=201'], ['?offset=-1'], ['?limit=x'], ['?page=2']])(
      'answers 400 for %s',
      async ([query], { as }) => {
        const response = await read(await as('alice'), `${ids.conversationId}/messages${query}`);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      },
    );

    it('refuses non-members, anonymous callers and unknown conversations', async ({
      as,
      anonymous,
    }) => {
      const path = `${ids.conversationId}/messages`;
      const kim = await read(await as('kim'), path);
      expect(kim.statusCode).toBe(403);
      expect(kim.json()).toMatchObject({ code: 'CONVERSATION_MEMBERS_ONLY' });
      expect((await read(await as('orga'), path)).statusCode).toBe(403);
      expect((await read(anonymous, path)).statusCode).toBe(401);
      expect((await read(await as('alice'), '999999/messages')).statusCode).toBe(403);
      expect((await read(await as('alice'), '0/messages')).statusCode).toBe(403);
      for (const id of ['abc', '4294967296']) {
        expect((await read(await as('alice'), `${id}/messages`)).statusCode).toBe(404);
      }
    });
  });
});

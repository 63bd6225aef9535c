import type { EntityManager, MikroORM } from '../db/orm.ts';
import { describe, expect, it, test } from '../test-support/fixtures.ts';

// conversations.last_message_at orders a member's conversations (the search index's chats); the
// messages' track_last_message trigger keeps it equal to the newest message's sent_at.
let orm: MikroORM;
let author: number;
const T0 = Date.parse('2026-11-01T12:00:00Z');

const sql = <T extends object = object>(query: string, params: unknown[] = []) =>
  orm.em.fork().execute<T[]>(query, params);

/** An instant `minutes` after T0, as the text the columns take. */
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

async function newConversation(): Promise<number> {
  const [row] = await sql<{ id: number }>('insert into conversations default values returning id');
  return row!.id;
}

async function send(conversationId: number, minutes: number, em?: EntityManager): Promise<number> {
  const run = em ?? orm.em.fork();
  const [row] = await run.execute<{ id: number }[]>(
    `insert into messages (conversation_id, author_id, body, sent_at) values (?, ?, 'Hallo', ?)
     returning id`,
    [conversationId, author, at(minutes)],
  );
  return row!.id;
}

async function lastMessageAt(conversationId: number): Promise<string | null> {
  const [row] = await sql<{ at: Date | string | null }>(
    'select last_message_at as at from conversations where id = ?',
    [conversationId],
  );
  return row!.at === null ? null : new Date(row!.at).toISOString();
}

/** A promise and the function that settles it, to hold a transaction open at a given point. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

test.beforeAll(async ({ orm: fileOrm }) => {
  orm = fileOrm;
  const [user] = await sql<{ id: number }>(
    `insert into users (first_name, last_name, email, password_hash)
     values ('Last', 'Message', 'last-message@example.org', 'x') returning id`,
  );
  author = user!.id;
});

describe('conversations.last_message_at', () => {
  it('is null while a conversation has no message', async () => {
    expect(await lastMessageAt(await newConversation())).toBeNull();
  });

  it('follows the newest message sent, and an older one arriving late does not lower it', async () => {
    const conversation = await newConversation();
    await send(conversation, 10);
    expect(await lastMessageAt(conversation)).toBe(at(10));
    await send(conversation, 5);
    expect(await lastMessageAt(conversation)).toBe(at(10));
    await send(conversation, 20);
    expect(await lastMessageAt(conversation)).toBe(at(20));
  });

  it('falls back to the next newest when the newest is removed, and to null with the last', async () => {
    const conversation = await newConversation();
    const older = await send(conversation, 1);
    const newest = await send(conversation, 2);
    await sql('delete from messages where id = ?', [newest]);
    expect(await lastMessageAt(conversation)).toBe(at(1));
    await sql('delete from messages where id = ?', [older]);
    expect(await lastMessageAt(conversation)).toBeNull();
  });

  it('follows a message moved to another conversation or back in time', async () => {
    const from = await newConversation();
    const to = await newConversation();
    await send(from, 1);
    const moved = await send(from, 3);
    await send(to, 2);
    await sql('update messages set conversation_id = ? where id = ?', [to, moved]);
    expect([await lastMessageAt(from), await lastMessageAt(to)]).toEqual([at(1), at(3)]);
    await sql('update messages set sent_at = ? where id = ?', [at(0), moved]);
    expect(await lastMessageAt(to)).toBe(at(2));
  });

  it('stays when only the author changes (an account deleted)', async () => {
    const conversation = await newConversation();
    const message = await send(conversation, 7);
    await sql('update messages set author_id = null where id = ?', [message]);
    expect(await lastMessageAt(conversation)).toBe(at(7));
  });

  it('keeps the later of two concurrent sends, whichever commits first', async () => {
    for (const [first, second] of [
      [30, 20],
      [20, 30],
    ] as const) {
      const conversation = await newConversation();
      const held = gate();
      const inserted = gate();
      const one = orm.em.fork().transactional(async (tx) => {
        await send(conversation, first, tx);
        inserted.open();
        await held.opened;
      });
      await inserted.opened;
      // Waits for the row lock of the first, then re-checks against its committed value.
      const two = orm.em.fork().transactional((tx) => send(conversation, second, tx));
      setTimeout(held.open, 100);
      await Promise.all([one, two]);
      expect(await lastMessageAt(conversation)).toBe(at(30));
    }
  });

  it('counts a send that commits while the newest message is being removed', async () => {
    const conversation = await newConversation();
    await send(conversation, 1);
    const removed = await send(conversation, 2);
    const held = gate();
    const inserted = gate();
    const sending = orm.em.fork().transactional(async (tx) => {
      await send(conversation, 3, tx);
      inserted.open();
      await held.opened;
    });
    await inserted.opened;
    // The removal recounts after the send committed: its message is the newest.
    const removing = sql('delete from messages where id = ?', [removed]);
    setTimeout(held.open, 100);
    await Promise.all([sending, removing]);
    expect(await lastMessageAt(conversation)).toBe(at(3));
  });
});

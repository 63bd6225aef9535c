import { describe, expect, it, type UserClient } from '../../test-support/fixtures.ts';

const SENDERS = 16;
const SENDS_PER_SENDER = 20;

/**
 * A busy group chat: every send rewrites the read state of the same member rows. No send may
 * fail because another one is sending at the same moment.
 */
describe('parallel sends to one conversation', () => {
  it(`stores all ${SENDERS} × ${SENDS_PER_SENDER} messages and answers every send with 200`, async ({
    as,
    sql,
  }) => {
    const [conversation] = await sql<{ id: number }[]>(
      `insert into conversations (name) values ('Busy') returning id`,
    );
    const conversationId = conversation!.id;
    const users = await sql<{ id: number }[]>(
      `with senders as (
         insert into users (first_name, last_name, email, password_hash, role, verified)
         select 'Sender' || n, 'Test', 'sender' || n || '.' || ? || '@parallel.example.org',
                'x', 1, true
           from generate_series(1, ?) n
         returning id)
       insert into conversation_members (conversation_id, user_id, unread)
       select ?, id, false from senders
       returning user_id as id`,
      [conversationId, SENDERS, conversationId],
    );
    const clients: UserClient[] = [];
    for (const user of users) clients.push(await as(user.id));

    const sends = clients.flatMap((client, sender) =>
      Array.from({ length: SENDS_PER_SENDER }, (_, n) =>
        client.post(`/api/conversations/${conversationId}/messages`, {
          body: `Nachricht ${n} von ${sender}`,
        }),
      ),
    );
    const responses = await Promise.all(sends);

    const failures = responses.filter((response) => response.statusCode !== 200);
    expect(failures.map((response) => response.body)).toEqual([]);
    const [stored] = await sql<{ count: string; distinct_bodies: string }[]>(
      `select count(*) as count, count(distinct body) as distinct_bodies
         from messages where conversation_id = ?`,
      [conversationId],
    );
    expect(Number(stored!.count)).toBe(SENDERS * SENDS_PER_SENDER);
    expect(Number(stored!.distinct_bodies)).toBe(SENDERS * SENDS_PER_SENDER);
    // The sends were stored one after the other: sent_at follows the ids, so "newest first"
    // is the order in which they happened.
    const [outOfOrder] = await sql<{ count: string }[]>(
      `select count(*) as count from (
         select sent_at < lag(sent_at) over (order by id) as earlier
           from messages where conversation_id = ?) ordered
        where earlier`,
      [conversationId],
    );
    expect(Number(outOfOrder!.count)).toBe(0);
    // The last send left its sender read and everybody else unread.
    const [last] = await sql<{ author_id: number }[]>(
      `select author_id from messages where conversation_id = ?
        order by sent_at desc, id desc limit 1`,
      [conversationId],
    );
    const states = await sql<{ user_id: number; unread: boolean }[]>(
      'select user_id, unread from conversation_members where conversation_id = ?',
      [conversationId],
    );
    for (const state of states) expect(state.unread).toBe(state.user_id !== last!.author_id);
  }, 120_000);
});

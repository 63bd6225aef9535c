import { describe, expect, it } from './fixtures.ts';
import type { ApiTester } from './api-tester.ts';
import { webClient } from './web-client.ts';

/** The calls of the platform's web client, client/src/api/conversations.js, for sending and read status. */
describe('web client: conversations.js', () => {
  async function conversationOfTwo(I: ApiTester) {
    const me = await I.createFoodsaver();
    const other = await I.createFoodsaver();
    const conversationId = await I.conversation([me.id, other.id]);
    return { me, other, conversationId, client: await I.login(me) };
  }

  const unreadOf = async (I: ApiTester, conversationId: number, userId: number) =>
    (
      await I.sql<{ unread: boolean }[]>(
        'select unread from conversation_members where conversation_id = ? and user_id = ?',
        [conversationId, userId],
      )
    )[0]!.unread;

  it('sendMessage', async ({ I }) => {
    const { me, other, conversationId, client } = await conversationOfTwo(I);
    const response = await webClient.post(
      I.app,
      client,
      `/conversations/${conversationId}/messages`,
      { body: 'Hallo aus dem Browser' },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ body: 'Hallo aus dem Browser', authorId: me.id });
    expect(await unreadOf(I, conversationId, other.id)).toBe(true);
  });

  it('sendMessage to a conversation that does not exist', async ({ I }) => {
    const { client } = await conversationOfTwo(I);
    const response = await webClient.post(I.app, client, '/conversations/999999/messages', {
      body: 'Hallo?',
    });
    expect(response.statusCode).toBe(403);
  });

  it('setReadStatus (read)', async ({ I }) => {
    const { me, conversationId, client } = await conversationOfTwo(I);
    await I.sql('update conversation_members set unread = true where conversation_id = ?', [
      conversationId,
    ]);
    const response = await webClient.post(
      I.app,
      client,
      `/conversations/${conversationId}/readStatus?read=1`,
    );
    expect(response.statusCode).toBe(200);
    expect(await unreadOf(I, conversationId, me.id)).toBe(false);
  });

  it('setReadStatus (unread)', async ({ I }) => {
    const { me, other, conversationId, client } = await conversationOfTwo(I);
    const response = await webClient.post(
      I.app,
      client,
      `/conversations/${conversationId}/readStatus?read=0`,
    );
    expect(response.statusCode).toBe(200);
    expect(await unreadOf(I, conversationId, me.id)).toBe(true);
    expect(await unreadOf(I, conversationId, other.id)).toBe(false);
  });
});

import { describe, expect, it, test } from './fixtures.ts';
import { randomClientKey, type TestUser } from './api-tester.ts';
import { BODY_ENCODINGS, platformRequest } from './platform-client.ts';

/** The platform's tests/Api/MessageApiCest.php, scenario by scenario, for sending messages. */
describe('MessageApiCest', () => {
  let user: TestUser;
  test.beforeEach(async ({ I }) => {
    user = await I.createFoodsaver();
  });

  const messagesOf = (conversationId: number) =>
    `from messages where conversation_id = ${conversationId}`;

  describe.each(BODY_ENCODINGS)('bodies as %s', (encoding) => {
    it('resendWithSameClientKeyIsIdempotent', async ({ I }) => {
      const other = await I.createFoodsaver();
      const conv = await I.conversation([user.id, other.id]);
      const client = await I.login(user);
      const clientKey = randomClientKey();
      const send = () =>
        platformRequest(I.app, client, {
          method: 'POST',
          url: `/api/conversations/${conv}/messages`,
          body: { body: 'hello', clientKey },
          encoding,
        });

      const first = await send();
      expect(first.statusCode).toBe(200);
      const firstId = first.json<{ id: number }>().id;

      const second = await send();
      expect(second.statusCode).toBe(200);
      expect(second.json<{ id: number }>().id).toBe(firstId);
      expect(await I.count(`${messagesOf(conv)} and client_key = ?`, [clientKey])).toBe(1);
    });

    it('differentClientKeysCreateSeparateMessages', async ({ I }) => {
      const other = await I.createFoodsaver();
      const conv = await I.conversation([user.id, other.id]);
      const client = await I.login(user);
      for (const clientKey of [randomClientKey(), randomClientKey()]) {
        const response = await platformRequest(I.app, client, {
          method: 'POST',
          url: `/api/conversations/${conv}/messages`,
          body: { body: 'same text', clientKey },
          encoding,
        });
        expect(response.statusCode).toBe(200);
      }
      expect(await I.count(`${messagesOf(conv)} and body = 'same text'`)).toBe(2);
    });

    it('sendingWithoutClientKeyStillWorks', async ({ I }) => {
      const other = await I.createFoodsaver();
      const conv = await I.conversation([user.id, other.id]);
      const response = await platformRequest(I.app, await I.login(user), {
        method: 'POST',
        url: `/api/conversations/${conv}/messages`,
        body: { body: 'no key here' },
        encoding,
      });
      expect(response.statusCode).toBe(200);
      expect(await I.count(`${messagesOf(conv)} and body = 'no key here'`)).toBe(1);
    });

    it('sameClientKeyFromAnotherSenderIsNotSwallowed', async ({ I }) => {
      const other = await I.createFoodsaver();
      const conv = await I.conversation([user.id, other.id]);
      const clientKey = randomClientKey();

      const mine = await platformRequest(I.app, await I.login(user), {
        method: 'POST',
        url: `/api/conversations/${conv}/messages`,
        body: { body: 'from me', clientKey },
        encoding,
      });
      expect(mine.statusCode).toBe(200);

      const theirs = await platformRequest(I.app, await I.login(other), {
        method: 'POST',
        url: `/api/conversations/${conv}/messages`,
        body: { body: 'from the other', clientKey },
        encoding,
      });
      expect(theirs.statusCode).toBe(200);

      expect(await I.count(`${messagesOf(conv)} and client_key = ?`, [clientKey])).toBe(2);
      expect(
        await I.count(`${messagesOf(conv)} and author_id = ? and body = 'from the other'`, [
          other.id,
        ]),
      ).toBe(1);
    });
  });

  it('getSingleConversation', async ({ I }) => {
    // The platform's test only asks for JSON: conversation 1 is not this new user's.
    const response = await platformRequest(I.app, await I.login(user), {
      method: 'GET',
      url: '/api/conversations/1',
    });
    expect(response.headers['content-type']).toMatch(/json/);
    expect(() => response.json<unknown>()).not.toThrow();
  });
});

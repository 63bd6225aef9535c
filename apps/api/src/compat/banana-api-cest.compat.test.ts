import { describe, expect, it, test } from './fixtures.ts';
import { type ApiTester, randomText, type TestUser } from './api-tester.ts';
import { BODY_ENCODINGS, platformRequest } from './platform-client.ts';

/** The platform's tests/Api/BananaApiCest.php: giving and removing bananas. */
describe('BananaApiCest', () => {
  let user: TestUser;
  let user2: TestUser;
  let user3: TestUser;
  test.beforeEach(async ({ I }) => {
    user = await I.createFoodsaver();
    user2 = await I.createFoodsaver();
    user3 = await I.createFoodsaver();
  });

  const bananaCount = (I: ApiTester, recipientId: number, senderId: number) =>
    I.count('from bananas where recipient_id = ? and sender_id = ?', [recipientId, senderId]);

  describe.each(BODY_ENCODINGS)('bodies as %s', (encoding) => {
    const give = async (I: ApiTester, sender: TestUser, recipientId: number, message: string) =>
      platformRequest(I.app, await I.login(sender), {
        method: 'POST',
        url: `/api/users/${recipientId}/bananas`,
        body: { message },
        encoding,
      });

    it('canGiveBanana', async ({ I }) => {
      const testUser = await I.createFoodsaver();
      const message = randomText(100);
      const response = await give(I, user, testUser.id, message);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ message, user: { id: user.id } });
      expect(await bananaCount(I, testUser.id, user.id)).toBe(1);
    });

    it('canNotGiveBananaWithShortMessage', async ({ I }) => {
      const testUser = await I.createFoodsaver();
      const response = await give(I, user, testUser.id, randomText(40).slice(0, 50));
      expect(response.statusCode).toBe(422);
      expect(await bananaCount(I, testUser.id, user.id)).toBe(0);
    });

    it('canNotGiveBananaTwice', async ({ I }) => {
      const testUser = await I.createFoodsaver();
      expect((await give(I, user, testUser.id, randomText(100))).statusCode).toBe(200);
      expect((await give(I, user, testUser.id, randomText(100))).statusCode).toBe(403);
      expect(await bananaCount(I, testUser.id, user.id)).toBe(1);
    });

    it('canNotGiveBananaToMyself', async ({ I }) => {
      const response = await give(I, user, user.id, randomText(100));
      expect(response.statusCode).toBe(403);
      expect(await bananaCount(I, user.id, user.id)).toBe(0);
    });
  });

  const remove = async (I: ApiTester, caller: TestUser, recipientId: number, senderId: number) =>
    platformRequest(I.app, await I.login(caller), {
      method: 'DELETE',
      url: `/api/users/${recipientId}/bananas/${senderId}`,
    });

  it('canDeleteOwnBanana', async ({ I }) => {
    await I.giveBanana(user.id, user2.id, randomText(100));
    const response = await remove(I, user, user.id, user2.id);
    expect(response.statusCode).toBe(200);
    expect(await bananaCount(I, user.id, user2.id)).toBe(0);
  });

  it('canDeleteGivenBanana', async ({ I }) => {
    await I.giveBanana(user.id, user2.id, randomText(100));
    const response = await remove(I, user2, user.id, user2.id);
    expect(response.statusCode).toBe(200);
    expect(await bananaCount(I, user.id, user2.id)).toBe(0);
  });

  it('cantDeleteOtherBanana', async ({ I }) => {
    await I.giveBanana(user3.id, user2.id, randomText(100));
    const response = await remove(I, user, user3.id, user2.id);
    expect(response.statusCode).toBe(403);
    expect(await bananaCount(I, user3.id, user2.id)).toBe(1);
  });
});

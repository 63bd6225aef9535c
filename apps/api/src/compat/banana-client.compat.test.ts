import { describe, expect, it } from './fixtures.ts';
import { randomText } from './api-tester.ts';
import { webClient } from './web-client.ts';

/** The calls of the platform's web client, client/src/api/banana.js, for giving and removing. */
describe('web client: banana.js', () => {
  it('sendBanana', async ({ I }) => {
    const sender = await I.createFoodsaver();
    const recipient = await I.createFoodsaver();
    const message = randomText(100);
    const response = await webClient.post(
      I.app,
      await I.login(sender),
      `/users/${recipient.id}/bananas`,
      { message },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message, user: { id: sender.id } });
  });

  it('deleteBanana', async ({ I }) => {
    const sender = await I.createFoodsaver();
    const recipient = await I.createFoodsaver();
    await I.giveBanana(recipient.id, sender.id, randomText(100));
    const response = await webClient.remove(
      I.app,
      await I.login(recipient),
      `/users/${recipient.id}/bananas/${sender.id}`,
    );
    expect(response.statusCode).toBe(200);
    expect(
      await I.count('from bananas where recipient_id = ? and sender_id = ?', [
        recipient.id,
        sender.id,
      ]),
    ).toBe(0);
  });

  it('deleteBanana of a banana that was never given', async ({ I }) => {
    const sender = await I.createFoodsaver();
    const recipient = await I.createFoodsaver();
    const response = await webClient.remove(
      I.app,
      await I.login(recipient),
      `/users/${recipient.id}/bananas/${sender.id}`,
    );
    expect(response.statusCode).toBe(404);
  });
});

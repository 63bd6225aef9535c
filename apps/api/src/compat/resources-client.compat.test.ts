import { describe, expect, it } from './fixtures.ts';
import { webClient } from './web-client.ts';

/** The platform's web client, client/src/api/resources.js: `getOwnResources`. */
describe('web client: resources.js', () => {
  it('getOwnResources', async ({ I }) => {
    const user = await I.createFoodsaver();
    const [region] = await I.sql<{ id: number }[]>(
      `insert into regions (name, type) values ('Compat Stadt', 1) returning id`,
    );
    await I.sql(
      `insert into resources (owner_id, region_id, name, description, openness)
       values (?, ?, 'Lastenrad', 'Für große Abholungen', 4)`,
      [user.id, region!.id],
    );
    const response = await webClient.get(I.app, await I.login(user), '/resources/own');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject([
      {
        name: 'Lastenrad',
        description: 'Für große Abholungen',
        openness: 4,
        user: { id: user.id },
      },
    ]);
  });

  it('getOwnResources of a user without any', async ({ I }) => {
    const user = await I.createFoodsaver();
    const response = await webClient.get(I.app, await I.login(user), '/resources/own');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('getOwnResources without a session', async ({ I }) => {
    expect((await webClient.get(I.app, null, '/resources/own')).statusCode).toBe(401);
  });
});

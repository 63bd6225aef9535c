import { type ApiClient, describe, expect, ids, it, test } from '../test-support/fixtures.ts';

/** Beyond a 32-bit id: it matches the path pattern, and idFromPath turns it into a 404. */
const TOO_BIG = '4294967296';

/** Every route whose path id idFromPath parses, with that id out of range. */
const routes: [method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string][] = [
  ['POST', `/api/users/${TOO_BIG}/bananas`],
  ['GET', `/api/chains/${TOO_BIG}`],
  ['GET', `/api/chains/${TOO_BIG}/kams`],
  ['PATCH', `/api/chains/${TOO_BIG}`],
  ['GET', `/api/conversations/${TOO_BIG}`],
  ['GET', `/api/conversations/${TOO_BIG}/messages`],
  ['POST', `/api/conversations/${TOO_BIG}/messages`],
  ['POST', `/api/conversations/${TOO_BIG}/readStatus?read=1`],
  ['GET', `/api/forum/post/${TOO_BIG}/hide`],
  ['PATCH', `/api/forum/post/${TOO_BIG}/hide`],
  ['DELETE', `/api/forum/post/${TOO_BIG}/hide`],
  ['GET', `/api/forum/threads/${TOO_BIG}/posts`],
  ['POST', `/api/users/current/quiz-sessions/${TOO_BIG}/confirmation`],
  ['GET', `/api/quiz/${TOO_BIG}/questions/1/answers`],
  ['DELETE', `/api/quiz/1/questions/1/answers/${TOO_BIG}`],
  ['GET', `/api/regions/${TOO_BIG}`],
  ['GET', `/api/stores/${TOO_BIG}/requests`],
  ['POST', `/api/stores/${ids.storeId}/requests/${TOO_BIG}`],
  ['DELETE', `/api/stores/${TOO_BIG}/requests/${ids.users.bob}`],
  ['GET', `/api/groups/${TOO_BIG}/applications`],
  ['DELETE', `/api/groups/${TOO_BIG}/applications/${ids.users.carla}`],
];

/**
 * Every handler reads the caller before it parses a path id, so that the answers come in the
 * order of docs/adding-an-endpoint.md §2.2 and §2.4: 401, then 404, then 403.
 */
describe('path ids are parsed after the caller is known', () => {
  let gone: ApiClient;

  const call = (client: ApiClient, method: (typeof routes)[number][0], url: string) =>
    client.request(method, url, method === 'POST' || method === 'PATCH' ? { payload: {} } : {});

  test.beforeAll(async ({ as, factory, sql }) => {
    const user = await factory.user({ role: 4, firstName: 'Gone', lastName: 'Away' });
    // A session without account facts (a previous release's) outlives the account: the
    // handler's own look-up of the caller refuses it.
    gone = await as(user, { accountFacts: false });
    await sql('update users set activated = false where id = ?', [user]);
  });

  it.for(routes)('%s %s answers 401 to an account that is gone', async ([method, url]) => {
    const response = await call(gone, method, url);
    expect(response.statusCode).toBe(401);
  });

  it.for(routes)('%s %s answers 404 to a caller who is known', async ([method, url], { as }) => {
    const response = await call(await as('orga'), method, url);
    expect(response.statusCode).toBe(404);
  });

  it('answers 404, not 403, to a caller who may not read a region, when the id names none', async ({
    as,
  }) => {
    const alice = await as('alice');
    expect((await call(alice, 'GET', `/api/regions/${TOO_BIG}`)).statusCode).toBe(404);
    expect((await call(alice, 'GET', '/api/regions/abc')).statusCode).toBe(404);
  });
});

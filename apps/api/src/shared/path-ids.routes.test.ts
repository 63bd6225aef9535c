import { openOrm, type MikroORM } from '@foodshare/domain';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiApp } from '../app.ts';
import { buildTestApp } from '../test-support/build-test-app.ts';

const ids = inject('demoIds');

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
  let app: ApiApp;
  let orm: MikroORM;
  let gone: SignedInClient;

  const call = (client: SignedInClient, method: string, url: string) =>
    app.inject({
      method: method as 'GET',
      url,
      cookies: client.cookies,
      headers: client.headers,
      ...(method === 'POST' || method === 'PATCH' ? { payload: {} } : {}),
    });

  beforeAll(async () => {
    const built = await buildTestApp();
    app = built.app;
    orm = await openOrm({ url: built.database.url });
    const em = orm.em.fork();
    const [user] = await em.execute<{ id: number }[]>(
      `insert into users (first_name, last_name, email, password_hash, role, verified)
       values ('Gone', 'Away', 'gone@path-ids.example.org', 'x', 4, true) returning id`,
    );
    gone = await signInAs(app, user!.id);
    // The session outlives the account: the handler's own look-up of the caller refuses it.
    await em.execute('update users set activated = false where id = ?', [user!.id]);
  });

  afterAll(async () => {
    await app.close();
    await orm.close();
  });

  it.each(routes)('%s %s answers 401 to an account that is gone', async (method, url) => {
    const response = await call(gone, method, url);
    expect(response.statusCode).toBe(401);
  });

  it.each(routes)('%s %s answers 404 to a caller who is known', async (method, url) => {
    const response = await call(await signInAs(app, ids.users.orga), method, url);
    expect(response.statusCode).toBe(404);
  });

  it('answers 404, not 403, to a caller who may not read a region, when the id names none', async () => {
    const alice = await signInAs(app, ids.users.alice);
    expect((await call(alice, 'GET', `/api/regions/${TOO_BIG}`)).statusCode).toBe(404);
    expect((await call(alice, 'GET', '/api/regions/abc')).statusCode).toBe(404);
  });
});

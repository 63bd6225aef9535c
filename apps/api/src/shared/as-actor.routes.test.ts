import { DemoRegionId, type DemoUserName } from '@foodshare/domain';
import { countQueries } from '@foodshare/server-kit/test-support';
import { type ApiClient, describe, expect, ids, it, test } from '../test-support/fixtures.ts';

const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
const now = new Date().toISOString();

const storeRequests = `/api/stores/${ids.storeId}/requests`;
const storeLog = `/api/stores/${ids.storeId}/log/${monthAgo}/${now}/actions/1,2,3`;

/**
 * Every read that reads the caller's account in its own first query (runSqlAsActor), with a
 * demo user who may read it and the statements it sends them, the account included.
 */
const folded: [url: string, who: DemoUserName, statements: number][] = [
  [`/api/chains/${ids.chainId}`, 'kim', 1],
  [`/api/chains/${ids.chainId}/kams`, 'kim', 1],
  [`/api/regions/${DemoRegionId.Musterstadt}`, 'orga', 1],
  [`/api/region/${DemoRegionId.Musterstadt}/options`, 'dana', 1],
  [`/api/region/${DemoRegionId.Musterstadt}/options/permissions`, 'dana', 2],
  [`/api/conversations/${ids.conversationId}`, 'alice', 1],
  [`/api/conversations/${ids.conversationId}/messages`, 'alice', 2],
  [storeRequests, 'alice', 2],
  [storeLog, 'alice', 2],
  [`/api/forum/post/${ids.hiddenPostId}/hide`, 'dana', 1],
  [`/api/forum/threads/${ids.forumThreadId}/posts`, 'dana', 2],
  [`/api/groups/${DemoRegionId.MusterstadtWorkGroup}/applications`, 'alice', 2],
  ['/api/user/current/passport/generations', 'alice', 1],
  [`/api/users/${ids.users.bob}/bananas`, 'carla', 1],
  [`/api/uploads/${ids.avatarUploadId}`, 'bob', 1],
];

describe('reads that check the account in their own query', () => {
  let gone: ApiClient;

  test.beforeAll(async ({ as, factory, sql }) => {
    const user = await factory.user({ role: 4, firstName: 'Gone', lastName: 'Away' });
    gone = await as(user);
    // The session outlives the account: the folded query finds no active account.
    await sql('update users set activated = false where id = ?', [user]);
  });

  it.for(folded)('GET %s answers 401 to an account that is gone', async ([url]) => {
    const response = await gone.get(url);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ detail: 'Your account is no longer active.' });
  });

  it.for(folded)(
    'GET %s read by %s sends %i statements',
    async ([url, who, statements], { app, as }) => {
      const client = await as(who);
      const { result, queries } = await countQueries(app.orm, () => client.get(url));
      expect(result.statusCode).toBe(200);
      expect(queries).toBe(statements);
    },
  );

  it('reads a question’s answers in two statements, and answers 401 to an account that is gone', async ({
    app,
    as,
    sql,
  }) => {
    const [question] = await sql<{ id: number }[]>(
      'select min(id) as id from quiz_questions where quiz_id = 1',
    );
    const url = `/api/quiz/1/questions/${question!.id}/answers`;
    const orga = await as('orga');
    const { result, queries } = await countQueries(app.orm, () => orga.get(url));
    expect(result.statusCode).toBe(200);
    expect(queries).toBe(2);
    expect((await gone.get(url)).statusCode).toBe(401);
  });

  it('answers 401 before the 400 of a malformed store-log window', async ({ as }) => {
    const url = `/api/stores/${ids.storeId}/log/${now}/${monthAgo}/actions/1,2,3`;
    expect((await (await as('orga')).get(url)).statusCode).toBe(400);
    expect((await gone.get(url)).statusCode).toBe(401);
  });

  it('sends no list to a caller the facts refuse', async ({ app, as }) => {
    // bob, a foodsaver of another region, may read neither the store's requests nor its log.
    const bob = await as('bob');
    for (const url of [storeRequests, storeLog]) {
      const { result, queries } = await countQueries(app.orm, () => bob.get(url));
      expect(result.statusCode).toBe(403);
      expect(queries).toBe(1);
    }
  });
});

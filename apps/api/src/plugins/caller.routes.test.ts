import { DemoRegionId, type DemoUserName } from '@foodshare/domain';
import { countQueries } from '@foodshare/server-kit/test-support';
import {
  type ApiClient,
  describe,
  expect,
  ids,
  it,
  type Sql,
  test,
} from '../test-support/fixtures.ts';

const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
const now = new Date().toISOString();

const storeRequests = `/api/stores/${ids.storeId}/requests`;
const storeLog = `/api/stores/${ids.storeId}/log/${monthAgo}/${now}/actions/1,2,3`;

/**
 * Reads whose route knows the caller's account first (requireActor), with a demo user who may
 * read it and the statements it sends them: the feature's own (the account comes with the
 * session, docs/design.md §3.11).
 */
const reads: [url: string, who: DemoUserName, statements: number][] = [
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

describe('reads that check the account first', () => {
  let gone: ApiClient;

  test.beforeAll(async ({ as, factory, sql }) => {
    const user = await factory.user({ role: 4, firstName: 'Gone', lastName: 'Away' });
    // A session without account facts (as a previous release wrote it) outlives the account,
    // deactivated behind its back: requireActor reads the account and finds it not active.
    gone = await as(user, { accountFacts: false });
    await sql('update users set activated = false where id = ?', [user]);
  });

  it.for(reads)('GET %s answers 401 to an account that is gone', async ([url]) => {
    const response = await gone.get(url);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ detail: 'Your account is no longer active.' });
  });

  it.for(reads)(
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

/**
 * Writes whose route knows the caller's account first (requireActor), with a body that would be
 * accepted from an active account of the role: an account that is gone gets the 401 and changes
 * nothing.
 */
const writes: [method: 'post' | 'patch' | 'delete', url: string, body?: object][] = [
  ['post', `/api/region/${DemoRegionId.Musterstadt}/options`, { enableReportButton: 1 }],
  ['patch', `/api/chains/${ids.chainId}`, { name: 'Von einem gelöschten Konto' }],
  ['post', `/api/conversations/${ids.conversationId}/messages`, { body: 'Noch da?' }],
  ['post', `/api/conversations/${ids.conversationId}/readStatus?read=1`],
  ['post', '/api/users/current/quiz-sessions/1/confirmation'],
  ['delete', `/api/groups/${DemoRegionId.MusterstadtWorkGroup}/applications/${ids.users.carla}`],
  ['post', `/api/users/${ids.users.bob}/bananas`, { message: 'x'.repeat(120) }],
  ['delete', `/api/users/${ids.users.bob}/bananas/${ids.users.alice}`],
];

/** A digest of each table the writes above change: equal digests, nothing changed. */
async function digests(sql: Sql): Promise<unknown> {
  const tables = [
    'region_options',
    'store_chains',
    'messages',
    'conversation_members',
    'quiz_sessions',
    'users',
    'work_group_applications',
    'bananas',
  ];
  return sql(
    tables
      .map(
        (table) =>
          `select '${table}' as t, md5(string_agg(x::text, ',' order by x::text)) as h from ${table} x`,
      )
      .join(' union all '),
  );
}

describe('writes that check the account first', () => {
  it.for(writes)(
    '%s %s answers 401 to an account that is gone and changes nothing',
    async ([method, url, body], { as, factory, sql }) => {
      const user = await factory.user({ role: 4, firstName: 'Gone', lastName: 'Away' });
      const gone = await as(user, { accountFacts: false });
      await sql('update users set activated = false where id = ?', [user]);
      const before = await digests(sql);
      const response =
        method === 'delete' ? await gone.delete(url) : await gone[method](url, body ?? {});
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ detail: 'Your account is no longer active.' });
      expect(await digests(sql)).toEqual(before);
    },
  );
});

import {
  ForumPostHideStateSchema,
  type ForumPostList,
  ForumPostListSchema,
} from '@foodshare/schemas';
import { Value } from 'typebox/value';
import {
  type ApiClient,
  describe,
  expect,
  ids,
  it,
  type Sql,
  test,
} from '../../test-support/fixtures.ts';

const MUSTERSTADT = 3;
const BEISPIELDORF = 4;

async function createPost(sql: Sql, thread = ids.forumThreadId, hidden = false): Promise<number> {
  const rows = await sql<{ id: number }[]>(
    `insert into forum_posts (thread_id, author_id, body, hidden_at, hidden_by_id, hide_reason)
     values (?, ?, 'Ein Beitrag', ${hidden ? "now(), ?, 'Früher versteckt'" : 'null, ?, null'})
     returning id`,
    [thread, ids.users.carla, hidden ? ids.users.orga : null],
  );
  return rows[0]!.id;
}

async function hiddenState(sql: Sql, postId: number) {
  const rows = await sql<{ hidden: boolean; reason: string | null; by: number | null }[]>(
    `select hidden_at is not null as hidden, hide_reason as reason, hidden_by_id as by
       from forum_posts where id = ?`,
    [postId],
  );
  return rows[0];
}

const call = (
  method: 'GET' | 'PATCH' | 'DELETE',
  client: ApiClient,
  postId: number | string,
  options: { body?: unknown; csrf?: boolean } = {},
) =>
  (options.csrf === false ? client.withoutCsrf() : client).request(
    method,
    `/api/forum/post/${postId}/hide`,
    options.body === undefined ? {} : { payload: options.body as object },
  );

const hide = (client: ApiClient, postId: number | string, reason: unknown = 'Beleidigend') =>
  call('PATCH', client, postId, { body: { reason } });
const restore = (client: ApiClient, postId: number | string) => call('DELETE', client, postId);

const posts = (client: ApiClient, thread: number | string, query = '') =>
  client.get(`/api/forum/threads/${thread}/posts${query}`);

describe('forum post hiding: GET, PATCH, DELETE /api/forum/post/{postId}/hide', () => {
  let roleUsers: number[] = [];
  /** A city with a moderation (10) working group: its admin moderates, its ambassador does not. */
  let delegated: { thread: number; ambassador: number; moderator: number };
  /** A thread in Beispieldorf, which does not allow hiding. */
  let noHidingThread: number;
  let ambassadorThread: number;

  test.beforeAll(async ({ factory }) => {
    roleUsers = await factory.userOfEachRole();
    const cityId = await factory.region({ name: 'Delegiertstadt', allowHidingInForum: true });
    const group = await factory.workGroup(cityId, 10, 'Moderation Delegiertstadt');
    delegated = {
      thread: await factory.forumThread(cityId),
      ambassador: await factory.user({ role: 3 }),
      moderator: await factory.user({ role: 1 }),
    };
    await factory.addAdmin(cityId, delegated.ambassador);
    await factory.addAdmin(group, delegated.moderator);
    noHidingThread = await factory.forumThread(BEISPIELDORF);
    ambassadorThread = await factory.forumThread(MUSTERSTADT, { ambassadorForum: true });
  });

  describe('GET (read-only hide state)', () => {
    it('shows the hide record of the demo post to a member of the region', async ({ as }) => {
      const response = await call('GET', await as('alice'), ids.hiddenPostId);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Value.Check(ForumPostHideStateSchema, body)).toBe(true);
      expect(body).toEqual({
        postId: ids.hiddenPostId,
        isHidden: true,
        hide: {
          reason: 'Enthält die private Telefonnummer einer Mitarbeiterin.',
          moderator: { id: ids.users.dana, name: 'Dana', avatar: null, isSleeping: false },
          hiddenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      });
    });

    it('shows a visible post as not hidden, and changes nothing', async ({ as, sql }) => {
      const response = await call('GET', await as('dana'), ids.visiblePostId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ postId: ids.visiblePostId, isHidden: false, hide: null });
      expect(await hiddenState(sql, ids.visiblePostId)).toMatchObject({ hidden: false });
    });

    it.for([
      ['alice, member', 'alice', 200],
      ['carla, member (foodsharer)', 'carla', 200],
      ['dana, ambassador', 'dana', 200],
      ['orga, no membership', 'orga', 200],
      ['bob, member of Beispieldorf only', 'bob', 403],
    ] as const)('%s reads it: %s', async ([_who, name, status], { as }) => {
      const response = await call('GET', await as(name), ids.hiddenPostId);
      expect(response.statusCode).toBe(status);
      if (status === 403) expect(response.json()).toMatchObject({ code: 'FORUM_ACCESS_FORBIDDEN' });
    });

    it('answers 401 without a session', async ({ anonymous }) => {
      const response = await call('GET', anonymous, ids.hiddenPostId);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    it.for<[string]>([
      ['999999'],
      ['0'],
      [`0${ids.visiblePostId}`],
      ['abc'],
      ['4294967296'],
      ['-1'],
    ])('answers 404 for post id %s', async ([postId], { as }) => {
      const response = await call('GET', await as('orga'), postId);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('PATCH (hide) and DELETE (restore)', () => {
    it('lets the ambassador hide a post with a reason and restore it', async ({ as, sql }) => {
      const dana = await as('dana');
      const postId = await createPost(sql);
      const hidden = await hide(dana, postId, '  Persönliche Daten  ');
      expect(hidden.statusCode).toBe(200);
      expect(Value.Check(ForumPostHideStateSchema, hidden.json())).toBe(true);
      expect(hidden.json()).toMatchObject({
        postId,
        isHidden: true,
        hide: { reason: 'Persönliche Daten', moderator: { id: ids.users.dana, name: 'Dana' } },
      });
      expect(await hiddenState(sql, postId)).toEqual({
        hidden: true,
        reason: 'Persönliche Daten',
        by: ids.users.dana,
      });
      expect((await call('GET', await as('alice'), postId)).json()).toEqual(hidden.json());

      const restored = await restore(dana, postId);
      expect(restored.statusCode).toBe(200);
      expect(Value.Check(ForumPostHideStateSchema, restored.json())).toBe(true);
      expect(restored.json()).toEqual({ postId, isHidden: false, hide: null });
      expect(await hiddenState(sql, postId)).toEqual({ hidden: false, reason: null, by: null });
    });

    it.for<[string, number, boolean]>([
      ['foodsharer (0)', 0, false],
      ['foodsaver (1)', 1, false],
      ['store manager (2)', 2, false],
      ['ambassador (3) of another region', 3, false],
      ['orga (4)', 4, true],
    ])(
      'a %s without relation may hide and restore: %s',
      async ([_who, role, allowed], { as, sql }) => {
        const client = await as(roleUsers[role]!);
        const postId = await createPost(sql);
        const hidden = await hide(client, postId);
        expect(hidden.statusCode).toBe(allowed ? 200 : 403);
        if (!allowed) expect(hidden.json()).toMatchObject({ code: 'FORUM_MODERATION_FORBIDDEN' });
        const hiddenPost = await createPost(sql, ids.forumThreadId, true);
        const restored = await restore(client, hiddenPost);
        expect(restored.statusCode).toBe(allowed ? 200 : 403);
        expect(await hiddenState(sql, postId)).toMatchObject({ hidden: allowed });
        expect(await hiddenState(sql, hiddenPost)).toMatchObject({ hidden: !allowed });
      },
    );

    it.for([
      ['alice, member and store manager', 'alice', false],
      ['kim, member', 'kim', false],
      ['carla, member and author of the post', 'carla', false],
      ['bob, member elsewhere', 'bob', false],
      ['dana, ambassador of the region', 'dana', true],
      ['orga', 'orga', true],
    ] as const)('%s may hide and restore: %s', async ([_who, name, allowed], { as, sql }) => {
      const client = await as(name);
      const postId = await createPost(sql);
      expect((await hide(client, postId)).statusCode).toBe(allowed ? 200 : 403);
      const hiddenPost = await createPost(sql, ids.forumThreadId, true);
      expect((await restore(client, hiddenPost)).statusCode).toBe(allowed ? 200 : 403);
    });

    it('gives the duty to the moderation working group, away from the ambassador', async ({
      as,
      sql,
    }) => {
      const moderator = await as(delegated.moderator);
      const ambassador = await as(delegated.ambassador);
      const postId = await createPost(sql, delegated.thread);
      const refused = await hide(ambassador, postId);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'FORUM_MODERATION_FORBIDDEN' });
      expect((await hide(moderator, postId)).statusCode).toBe(200);
      expect((await restore(ambassador, postId)).statusCode).toBe(403);
      expect((await restore(moderator, postId)).statusCode).toBe(200);
    });

    it('needs the region option to hide, but not to restore', async ({ as, sql }) => {
      const orga = await as('orga');
      const visible = await createPost(sql, noHidingThread);
      const refused = await hide(orga, visible);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'FORUM_HIDING_DISABLED' });
      expect(await hiddenState(sql, visible)).toMatchObject({ hidden: false });
      const earlier = await createPost(sql, noHidingThread, true);
      expect((await restore(orga, earlier)).statusCode).toBe(200);
      // Somebody without the duty learns nothing about the option.
      const outsider = await hide(await as('bob'), visible);
      expect(outsider.json()).toMatchObject({ code: 'FORUM_MODERATION_FORBIDDEN' });
    });

    it('refuses to hide a hidden post and to restore a visible one with 400', async ({
      as,
      sql,
    }) => {
      const dana = await as('dana');
      const again = await hide(dana, ids.hiddenPostId, 'Noch einmal');
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ code: 'POST_ALREADY_HIDDEN' });
      expect(await hiddenState(sql, ids.hiddenPostId)).toMatchObject({
        reason: 'Enthält die private Telefonnummer einer Mitarbeiterin.',
        by: ids.users.dana,
      });
      const visible = await restore(dana, ids.visiblePostId);
      expect(visible.statusCode).toBe(400);
      expect(visible.json()).toMatchObject({ code: 'POST_NOT_HIDDEN' });
    });

    it('lets exactly one of two simultaneous hides win', async ({ as, sql }) => {
      const postId = await createPost(sql);
      const [first, second] = await Promise.all([
        hide(await as('dana'), postId, 'Erster'),
        hide(await as('orga'), postId, 'Zweiter'),
      ]);
      expect([first.statusCode, second.statusCode].sort()).toEqual([200, 400]);
      const winner = first.statusCode === 200 ? 'Erster' : 'Zweiter';
      expect(await hiddenState(sql, postId)).toMatchObject({ reason: winner });
    });

    it.for<[string, unknown, number]>([
      ['an empty reason', '', 400],
      ['a blank reason', '   ', 400],
      ['a reason of 1 character', 'x', 200],
      ['a reason of 255 characters', 'r'.repeat(255), 200],
      ['a reason of 256 characters', 'r'.repeat(256), 400],
      ['a reason that is a number', 5, 400],
      ['a reason with a NUL character', 'Spam\u0000', 400],
      ['a reason of U+0085 (blank to PostgreSQL under ICU)', '\u0085', 400],
    ])('answers %s with %i', async ([_what, reason, status], { as, sql }) => {
      const postId = await createPost(sql);
      const response = await hide(await as('dana'), postId, reason);
      expect(response.statusCode).toBe(status);
      if (status === 400) expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(await hiddenState(sql, postId)).toMatchObject({ hidden: status === 200 });
    });

    it('refuses a body without reason; ignores unknown keys', async ({ as, sql }) => {
      const dana = await as('dana');
      const postId = await createPost(sql);
      expect((await call('PATCH', dana, postId, { body: {} })).statusCode).toBe(400);
      expect(await hiddenState(sql, postId)).toMatchObject({ hidden: false });
      const extra = await call('PATCH', dana, postId, { body: { reason: 'x', hidden: 'no' } });
      expect(extra.statusCode).toBe(200);
      expect(await hiddenState(sql, postId)).toMatchObject({ hidden: true });
    });

    it('needs the CSRF token to hide and to restore', async ({ as, sql }) => {
      const dana = await as('dana');
      const postId = await createPost(sql);
      const hidden = await call('PATCH', dana, postId, { body: { reason: 'x' }, csrf: false });
      expect(hidden.statusCode).toBe(403);
      expect(hidden.json()).toMatchObject({ code: 'CSRF_FAILED' });
      expect(await hiddenState(sql, postId)).toMatchObject({ hidden: false });
      const restored = await call('DELETE', dana, ids.hiddenPostId, { csrf: false });
      expect(restored.statusCode).toBe(403);
      expect(restored.json()).toMatchObject({ code: 'CSRF_FAILED' });
      expect(await hiddenState(sql, ids.hiddenPostId)).toMatchObject({ hidden: true });
    });

    it('answers 401 without a session', async ({ sql, anonymous }) => {
      const postId = await createPost(sql);
      expect((await hide(anonymous, postId)).statusCode).toBe(401);
      expect((await restore(anonymous, ids.hiddenPostId)).statusCode).toBe(401);
      expect(await hiddenState(sql, postId)).toMatchObject({ hidden: false });
    });

    it.for<[string]>([['999999'], ['0'], [`0${ids.visiblePostId}`], ['abc'], ['4294967296']])(
      'answers 404 for post id %s',
      async ([postId], { as }) => {
        const orga = await as('orga');
        expect((await hide(orga, postId)).statusCode).toBe(404);
        expect((await restore(orga, postId)).statusCode).toBe(404);
      },
    );
  });

  describe('GET /api/forum/threads/{threadId}/posts', () => {
    it('shows a hidden post without its body to a member, with the hide record', async ({ as }) => {
      const response = await posts(await as('alice'), ids.forumThreadId, '?limit=4');
      expect(response.statusCode).toBe(200);
      const body = response.json<ForumPostList>();
      expect(Value.Check(ForumPostListSchema, body)).toBe(true);
      expect(body).toHaveLength(4);
      const hidden = body.find((post) => post.id === ids.hiddenPostId);
      expect(hidden).toMatchObject({
        body: null,
        isHidden: true,
        author: { id: ids.users.carla, name: 'Carla' },
        hide: { moderator: { id: ids.users.dana } },
      });
      const visible = body.find((post) => post.id === ids.visiblePostId);
      expect(visible).toMatchObject({ isHidden: false, hide: null, body: expect.any(String) });
      const times = body.map((post) => post.createdAt);
      expect(times).toEqual([...times].sort());
    });

    it.for([
      ['dana, the moderator', 'dana'],
      ['orga', 'orga'],
    ] as const)('shows the hidden body to %s', async ([_who, name], { as }) => {
      const response = await posts(await as(name), ids.forumThreadId);
      const hidden = response.json<ForumPostList>().find((post) => post.id === ids.hiddenPostId);
      expect(hidden).toMatchObject({ isHidden: true, body: expect.stringContaining('0151') });
    });

    it.for([
      ['general forum, bob (member elsewhere)', 'bob', () => ids.forumThreadId, 403],
      ['general forum, carla (member)', 'carla', () => ids.forumThreadId, 200],
      ['ambassador forum, alice (member)', 'alice', () => ambassadorThread, 403],
      ['ambassador forum, dana (ambassador)', 'dana', () => ambassadorThread, 200],
      ['ambassador forum, orga', 'orga', () => ambassadorThread, 200],
    ] as const)('%s: %i', async ([_who, name, thread, status], { as }) => {
      const response = await posts(await as(name), thread());
      expect(response.statusCode).toBe(status);
      if (status === 403) expect(response.json()).toMatchObject({ code: 'FORUM_ACCESS_FORBIDDEN' });
    });

    it('pages with limit and offset', async ({ as }) => {
      const alice = await as('alice');
      const all = (await posts(alice, ids.forumThreadId, '?limit=100')).json<ForumPostList>();
      const page = (
        await posts(alice, ids.forumThreadId, '?limit=2&offset=1')
      ).json<ForumPostList>();
      expect(page.map((post) => post.id)).toEqual(all.slice(1, 3).map((post) => post.id));
    });

    it.for<[string]>([['?limit=0'], ['?limit=101'], ['?offset=-1'], ['?limit=abc']])(
      'answers 400 for %s',
      async ([query], { as }) => {
        const response = await posts(await as('alice'), ids.forumThreadId, query);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      },
    );

    it('answers 401 without a session and 404 for unknown or malformed threads', async ({
      as,
      anonymous,
    }) => {
      expect((await posts(anonymous, ids.forumThreadId)).statusCode).toBe(401);
      const orga = await as('orga');
      for (const thread of ['999999', '0', `0${ids.forumThreadId}`, 'abc', '4294967296']) {
        expect((await posts(orga, thread)).statusCode).toBe(404);
      }
    });
  });
});

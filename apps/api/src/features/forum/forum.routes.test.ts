import { openOrm, type MikroORM } from '@foodshare/domain';
import {
  ForumPostHideStateSchema,
  type ForumPostList,
  ForumPostListSchema,
} from '@foodshare/schemas';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { ApiApp } from '../../app.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';

const ids = inject('demoIds');

type Rows = Record<string, unknown>[];
const MUSTERSTADT = 3;
const BEISPIELDORF = 4;

describe('forum post hiding: GET, PATCH, DELETE /api/forum/post/{postId}/hide', () => {
  let app: ApiApp;
  let orm: MikroORM;
  const roleUsers: number[] = [];
  /** A city with a moderation (10) working group: its admin moderates, its ambassador does not. */
  let delegated: { thread: number; ambassador: number; moderator: number };
  /** A thread in Beispieldorf, which does not allow hiding. */
  let noHidingThread: number;
  let ambassadorThread: number;

  const sql = <T extends Rows = Rows>(query: string, params: unknown[] = []) =>
    orm.em.fork().execute<T>(query, params);

  async function createUser(tag: string, role = 1): Promise<number> {
    const rows = await sql<{ id: number }[]>(
      `insert into users (first_name, last_name, email, password_hash, role, verified)
       values (?, 'Test', ?, 'x', ?, true) returning id`,
      [tag, `${tag}@forum.example.org`, role],
    );
    return rows[0]!.id;
  }

  async function createThread(region: number, isAmbassadorForum = false): Promise<number> {
    const rows = await sql<{ id: number }[]>(
      `insert into forum_threads (region_id, title, is_ambassador_forum)
       values (?, 'Testfaden', ?) returning id`,
      [region, isAmbassadorForum],
    );
    return rows[0]!.id;
  }

  async function createPost(thread = ids.forumThreadId, hidden = false): Promise<number> {
    const rows = await sql<{ id: number }[]>(
      `insert into forum_posts (thread_id, author_id, body, hidden_at, hidden_by_id, hide_reason)
       values (?, ?, 'Ein Beitrag', ${hidden ? "now(), ?, 'Früher versteckt'" : 'null, ?, null'})
       returning id`,
      [thread, ids.users.carla, hidden ? ids.users.orga : null],
    );
    return rows[0]!.id;
  }

  async function hiddenState(postId: number) {
    const rows = await sql<{ hidden: boolean; reason: string | null; by: number | null }[]>(
      `select hidden_at is not null as hidden, hide_reason as reason, hidden_by_id as by
         from forum_posts where id = ?`,
      [postId],
    );
    return rows[0];
  }

  const as = (name: keyof typeof ids.users) => signInAs(app, ids.users[name]);

  const call = (
    method: 'GET' | 'PATCH' | 'DELETE',
    client: SignedInClient | null,
    postId: number | string,
    options: { body?: unknown; csrf?: boolean } = {},
  ) =>
    app.inject({
      method,
      url: `/api/forum/post/${postId}/hide`,
      ...(options.body === undefined ? {} : { payload: options.body as object }),
      ...(client
        ? {
            cookies: client.cookies,
            ...(options.csrf === false ? {} : { headers: client.headers }),
          }
        : {}),
    });

  const hide = (
    client: SignedInClient | null,
    postId: number | string,
    reason: unknown = 'Beleidigend',
  ) => call('PATCH', client, postId, { body: { reason } });
  const restore = (client: SignedInClient | null, postId: number | string) =>
    call('DELETE', client, postId);

  const posts = (client: SignedInClient | null, thread: number | string, query = '') =>
    app.inject({
      method: 'GET',
      url: `/api/forum/threads/${thread}/posts${query}`,
      ...(client ? { cookies: client.cookies } : {}),
    });

  beforeAll(async () => {
    const built = await buildTestApp();
    app = built.app;
    orm = await openOrm({ url: built.database.url });
    for (const role of [0, 1, 2, 3, 4]) roleUsers.push(await createUser(`role${role}`, role));
    const city = await sql<{ id: number }[]>(
      `insert into regions (name, type, parent_id, allow_hiding_in_forum)
       values ('Delegiertstadt', 1, 2, true) returning id`,
    );
    const cityId = city[0]!.id;
    const group = await sql<{ id: number }[]>(
      `insert into regions (name, type, parent_id, workgroup_function)
       values ('Moderation Delegiertstadt', 7, ?, 10) returning id`,
      [cityId],
    );
    delegated = {
      thread: await createThread(cityId),
      ambassador: await createUser('delegated-ambassador', 3),
      moderator: await createUser('delegated-moderator', 1),
    };
    await sql('insert into region_admins (region_id, user_id) values (?, ?), (?, ?)', [
      cityId,
      delegated.ambassador,
      group[0]!.id,
      delegated.moderator,
    ]);
    noHidingThread = await createThread(BEISPIELDORF);
    ambassadorThread = await createThread(MUSTERSTADT, true);
  });

  afterAll(async () => {
    await app.close();
    await orm.close();
  });

  describe('GET (read-only hide state)', () => {
    it('shows the hide record of the demo post to a member of the region', async () => {
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

    it('shows a visible post as not hidden, and changes nothing', async () => {
      const response = await call('GET', await as('dana'), ids.visiblePostId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ postId: ids.visiblePostId, isHidden: false, hide: null });
      expect(await hiddenState(ids.visiblePostId)).toMatchObject({ hidden: false });
    });

    it.each([
      ['alice, member', 'alice', 200],
      ['carla, member (foodsharer)', 'carla', 200],
      ['dana, ambassador', 'dana', 200],
      ['orga, no membership', 'orga', 200],
      ['bob, member of Beispieldorf only', 'bob', 403],
    ] as const)('%s reads it: %s', async (_who, name, status) => {
      const response = await call('GET', await as(name), ids.hiddenPostId);
      expect(response.statusCode).toBe(status);
      if (status === 403) expect(response.json()).toMatchObject({ code: 'FORUM_ACCESS_FORBIDDEN' });
    });

    it('answers 401 without a session', async () => {
      const response = await call('GET', null, ids.hiddenPostId);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    it.each([['999999'], ['0'], [`0${ids.visiblePostId}`], ['abc'], ['4294967296'], ['-1']])(
      'answers 404 for post id %s',
      async (postId) => {
        const response = await call('GET', await as('orga'), postId);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
      },
    );
  });

  describe('PATCH (hide) and DELETE (restore)', () => {
    it('lets the ambassador hide a post with a reason and restore it', async () => {
      const dana = await as('dana');
      const postId = await createPost();
      const hidden = await hide(dana, postId, '  Persönliche Daten  ');
      expect(hidden.statusCode).toBe(200);
      expect(Value.Check(ForumPostHideStateSchema, hidden.json())).toBe(true);
      expect(hidden.json()).toMatchObject({
        postId,
        isHidden: true,
        hide: { reason: 'Persönliche Daten', moderator: { id: ids.users.dana, name: 'Dana' } },
      });
      expect(await hiddenState(postId)).toEqual({
        hidden: true,
        reason: 'Persönliche Daten',
        by: ids.users.dana,
      });
      expect((await call('GET', await as('alice'), postId)).json()).toEqual(hidden.json());

      const restored = await restore(dana, postId);
      expect(restored.statusCode).toBe(200);
      expect(Value.Check(ForumPostHideStateSchema, restored.json())).toBe(true);
      expect(restored.json()).toEqual({ postId, isHidden: false, hide: null });
      expect(await hiddenState(postId)).toEqual({ hidden: false, reason: null, by: null });
    });

    it.each([
      ['foodsharer (0)', 0, false],
      ['foodsaver (1)', 1, false],
      ['store manager (2)', 2, false],
      ['ambassador (3) of another region', 3, false],
      ['orga (4)', 4, true],
    ])('a %s without relation may hide and restore: %s', async (_who, role, allowed) => {
      const client = await signInAs(app, roleUsers[role]!);
      const postId = await createPost();
      const hidden = await hide(client, postId);
      expect(hidden.statusCode).toBe(allowed ? 200 : 403);
      if (!allowed) expect(hidden.json()).toMatchObject({ code: 'FORUM_MODERATION_FORBIDDEN' });
      const hiddenPost = await createPost(ids.forumThreadId, true);
      const restored = await restore(client, hiddenPost);
      expect(restored.statusCode).toBe(allowed ? 200 : 403);
      expect(await hiddenState(postId)).toMatchObject({ hidden: allowed });
      expect(await hiddenState(hiddenPost)).toMatchObject({ hidden: !allowed });
    });

    it.each([
      ['alice, member and store manager', 'alice', false],
      ['kim, member', 'kim', false],
      ['carla, member and author of the post', 'carla', false],
      ['bob, member elsewhere', 'bob', false],
      ['dana, ambassador of the region', 'dana', true],
      ['orga', 'orga', true],
    ] as const)('%s may hide and restore: %s', async (_who, name, allowed) => {
      const client = await as(name);
      const postId = await createPost();
      expect((await hide(client, postId)).statusCode).toBe(allowed ? 200 : 403);
      const hiddenPost = await createPost(ids.forumThreadId, true);
      expect((await restore(client, hiddenPost)).statusCode).toBe(allowed ? 200 : 403);
    });

    it('gives the duty to the moderation working group, away from the ambassador', async () => {
      const moderator = await signInAs(app, delegated.moderator);
      const ambassador = await signInAs(app, delegated.ambassador);
      const postId = await createPost(delegated.thread);
      const refused = await hide(ambassador, postId);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'FORUM_MODERATION_FORBIDDEN' });
      expect((await hide(moderator, postId)).statusCode).toBe(200);
      expect((await restore(ambassador, postId)).statusCode).toBe(403);
      expect((await restore(moderator, postId)).statusCode).toBe(200);
    });

    it('needs the region option to hide, but not to restore', async () => {
      const orga = await as('orga');
      const visible = await createPost(noHidingThread);
      const refused = await hide(orga, visible);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'FORUM_HIDING_DISABLED' });
      expect(await hiddenState(visible)).toMatchObject({ hidden: false });
      const earlier = await createPost(noHidingThread, true);
      expect((await restore(orga, earlier)).statusCode).toBe(200);
      // Somebody without the duty learns nothing about the option.
      const outsider = await hide(await as('bob'), visible);
      expect(outsider.json()).toMatchObject({ code: 'FORUM_MODERATION_FORBIDDEN' });
    });

    it('refuses to hide a hidden post and to restore a visible one with 400', async () => {
      const dana = await as('dana');
      const again = await hide(dana, ids.hiddenPostId, 'Noch einmal');
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ code: 'POST_ALREADY_HIDDEN' });
      expect(await hiddenState(ids.hiddenPostId)).toMatchObject({
        reason: 'Enthält die private Telefonnummer einer Mitarbeiterin.',
        by: ids.users.dana,
      });
      const visible = await restore(dana, ids.visiblePostId);
      expect(visible.statusCode).toBe(400);
      expect(visible.json()).toMatchObject({ code: 'POST_NOT_HIDDEN' });
    });

    it('lets exactly one of two simultaneous hides win', async () => {
      const postId = await createPost();
      const [first, second] = await Promise.all([
        hide(await as('dana'), postId, 'Erster'),
        hide(await as('orga'), postId, 'Zweiter'),
      ]);
      expect([first.statusCode, second.statusCode].sort()).toEqual([200, 400]);
      const winner = first.statusCode === 200 ? 'Erster' : 'Zweiter';
      expect(await hiddenState(postId)).toMatchObject({ reason: winner });
    });

    it.each([
      ['an empty reason', '', 400],
      ['a blank reason', '   ', 400],
      ['a reason of 1 character', 'x', 200],
      ['a reason of 255 characters', 'r'.repeat(255), 200],
      ['a reason of 256 characters', 'r'.repeat(256), 400],
      ['a reason that is a number', 5, 400],
      ['a reason with a NUL character', 'Spam\u0000', 400],
      ['a reason of U+0085 (blank to PostgreSQL under ICU)', '\u0085', 400],
    ])('answers %s with %i', async (_what, reason, status) => {
      const postId = await createPost();
      const response = await hide(await as('dana'), postId, reason);
      expect(response.statusCode).toBe(status);
      if (status === 400) expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(await hiddenState(postId)).toMatchObject({ hidden: status === 200 });
    });

    it('refuses a body without reason; ignores unknown keys', async () => {
      const dana = await as('dana');
      const postId = await createPost();
      expect((await call('PATCH', dana, postId, { body: {} })).statusCode).toBe(400);
      expect(await hiddenState(postId)).toMatchObject({ hidden: false });
      const extra = await call('PATCH', dana, postId, { body: { reason: 'x', hidden: 'no' } });
      expect(extra.statusCode).toBe(200);
      expect(await hiddenState(postId)).toMatchObject({ hidden: true });
    });

    it('needs the CSRF token to hide and to restore', async () => {
      const dana = await as('dana');
      const postId = await createPost();
      const hidden = await call('PATCH', dana, postId, { body: { reason: 'x' }, csrf: false });
      expect(hidden.statusCode).toBe(403);
      expect(hidden.json()).toMatchObject({ code: 'CSRF_FAILED' });
      expect(await hiddenState(postId)).toMatchObject({ hidden: false });
      const restored = await call('DELETE', dana, ids.hiddenPostId, { csrf: false });
      expect(restored.statusCode).toBe(403);
      expect(restored.json()).toMatchObject({ code: 'CSRF_FAILED' });
      expect(await hiddenState(ids.hiddenPostId)).toMatchObject({ hidden: true });
    });

    it('answers 401 without a session', async () => {
      const postId = await createPost();
      expect((await hide(null, postId)).statusCode).toBe(401);
      expect((await restore(null, ids.hiddenPostId)).statusCode).toBe(401);
      expect(await hiddenState(postId)).toMatchObject({ hidden: false });
    });

    it.each([['999999'], ['0'], [`0${ids.visiblePostId}`], ['abc'], ['4294967296']])(
      'answers 404 for post id %s',
      async (postId) => {
        const orga = await as('orga');
        expect((await hide(orga, postId)).statusCode).toBe(404);
        expect((await restore(orga, postId)).statusCode).toBe(404);
      },
    );
  });

  describe('GET /api/forum/threads/{threadId}/posts', () => {
    it('shows a hidden post without its body to a member, with the hide record', async () => {
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

    it.each([
      ['dana, the moderator', 'dana'],
      ['orga', 'orga'],
    ] as const)('shows the hidden body to %s', async (_who, name) => {
      const response = await posts(await as(name), ids.forumThreadId);
      const hidden = response.json<ForumPostList>().find((post) => post.id === ids.hiddenPostId);
      expect(hidden).toMatchObject({ isHidden: true, body: expect.stringContaining('0151') });
    });

    it.each([
      ['general forum, bob (member elsewhere)', 'bob', () => ids.forumThreadId, 403],
      ['general forum, carla (member)', 'carla', () => ids.forumThreadId, 200],
      ['ambassador forum, alice (member)', 'alice', () => ambassadorThread, 403],
      ['ambassador forum, dana (ambassador)', 'dana', () => ambassadorThread, 200],
      ['ambassador forum, orga', 'orga', () => ambassadorThread, 200],
    ] as const)('%s: %i', async (_who, name, thread, status) => {
      const response = await posts(await as(name), thread());
      expect(response.statusCode).toBe(status);
      if (status === 403) expect(response.json()).toMatchObject({ code: 'FORUM_ACCESS_FORBIDDEN' });
    });

    it('pages with limit and offset', async () => {
      const alice = await as('alice');
      const all = (await posts(alice, ids.forumThreadId, '?limit=100')).json<ForumPostList>();
      const page = (
        await posts(alice, ids.forumThreadId, '?limit=2&offset=1')
      ).json<ForumPostList>();
      expect(page.map((post) => post.id)).toEqual(all.slice(1, 3).map((post) => post.id));
    });

    it.each([['?limit=0'], ['?limit=101'], ['?offset=-1'], ['?limit=abc']])(
      'answers 400 for %s',
      async (query) => {
        const response = await posts(await as('alice'), ids.forumThreadId, query);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      },
    );

    it('answers 401 without a session and 404 for unknown or malformed threads', async () => {
      expect((await posts(null, ids.forumThreadId)).statusCode).toBe(401);
      const orga = await as('orga');
      for (const thread of ['999999', '0', `0${ids.forumThreadId}`, 'abc', '4294967296']) {
        expect((await posts(orga, thread)).statusCode).toBe(404);
      }
    });
  });
});

import { openOrm, type MikroORM } from '@foodshare/domain';
import { QuizConfirmationSchema } from '@foodshare/schemas';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiApp } from '../../app.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';

const ids = inject('demoIds');
const PASSED = 1;
const FAILED = 2;
const RUNNING = 0;

describe('POST /api/users/current/quiz-sessions/{quizId}/confirmation', () => {
  let app: ApiApp;
  let orm: MikroORM;
  let userCount = 0;

  const sql = async <T = unknown>(query: string, params: unknown[] = []): Promise<T> =>
    (await orm.em.fork().execute(query, params)) as T;

  /** A user of the role with quiz sessions of the given statuses, oldest first. */
  async function userWithSessions(
    role: number,
    quizId: number,
    statuses: number[],
  ): Promise<number> {
    userCount += 1;
    const rows = await sql<{ id: number }[]>(
      `insert into users (first_name, last_name, email, password_hash, role)
       values ('Quentin', 'Quiz', ?, 'x', ?) returning id`,
      [`quiz${userCount}@quiz.example.org`, role],
    );
    const userId = rows[0]!.id;
    for (const [i, status] of statuses.entries()) {
      await sql(
        `insert into quiz_sessions (user_id, quiz_id, status, started_at)
         values (?, ?, ?, now() - make_interval(days => ?))`,
        [userId, quizId, status, statuses.length - i],
      );
    }
    return userId;
  }

  const roleOf = async (userId: number) =>
    (await sql<{ role: number }[]>('select role from users where id = ?', [userId]))[0]!.role;

  const confirm = (client: SignedInClient | null, quizId: number | string, csrf = true) =>
    app.inject({
      method: 'POST',
      url: `/api/users/current/quiz-sessions/${quizId}/confirmation`,
      ...(client ? { cookies: client.cookies, ...(csrf ? { headers: client.headers } : {}) } : {}),
    });

  const current = (client: SignedInClient) =>
    app.inject({ method: 'GET', url: '/api/users/current', cookies: client.cookies });

  beforeAll(async () => {
    const built = await buildTestApp();
    app = built.app;
    orm = await openOrm({ url: built.database.url });
  });

  afterAll(async () => {
    await app.close();
    await orm.close();
  });

  it('raises carla to foodsaver, ends her other sessions and keeps this one', async () => {
    const phone = await signInAs(app, ids.users.carla);
    const laptop = await signInAs(app, ids.users.carla);
    const tablet = await signInAs(app, ids.users.carla);
    expect((await current(phone)).json()).toMatchObject({ role: 0 });

    const response = await confirm(laptop, 1);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Value.Check(QuizConfirmationSchema, body)).toBe(true);
    expect(body).toMatchObject({ quizId: 1, role: 1, endedSessionCount: 2 });

    expect((await current(phone)).statusCode).toBe(401);
    expect((await current(tablet)).statusCode).toBe(401);
    const still = await current(laptop);
    expect(still.statusCode).toBe(200);
    expect(still.json()).toMatchObject({ id: ids.users.carla, role: 1 });

    const sessions = await sql<{ status: number; confirmed: boolean }[]>(
      `select status, confirmed_at is not null as confirmed from quiz_sessions
        where user_id = ? and quiz_id = 1 order by started_at`,
      [ids.users.carla],
    );
    expect(sessions).toEqual([
      { status: FAILED, confirmed: false },
      { status: PASSED, confirmed: true },
    ]);

    // Confirming again changes nothing and keeps the first confirmation time.
    const again = await confirm(laptop, 1);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...body, endedSessionCount: 0 });
  });

  it.each([
    ['foodsharer', 0, 2],
    ['foodsaver', 1, 2],
    ['store manager', 2, 2],
    ['ambassador', 3, 3],
    ['orga', 4, 4],
  ])('a %s confirming the store manager quiz ends with role %i', async (_who, role, after) => {
    const userId = await userWithSessions(role, 2, [PASSED]);
    const response = await confirm(await signInAs(app, userId), 2);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ quizId: 2, role: after });
    expect(await roleOf(userId)).toBe(after);
  });

  it('never lowers a role: dana (ambassador) confirms the foodsaver quiz', async () => {
    const response = await confirm(await signInAs(app, ids.users.dana), 1);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ role: 3 });
    expect(await roleOf(ids.users.dana)).toBe(3);
  });

  it('answers 400 for a passed ambassador quiz, which grants no role to confirm', async () => {
    const userId = await userWithSessions(1, 3, [PASSED]);
    const response = await confirm(await signInAs(app, userId), 3);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 400, code: 'QUIZ_NOT_CONFIRMABLE' });
    expect(await roleOf(userId)).toBe(1);
  });

  it('answers 403 before 400: a failed ambassador quiz is not a passed one', async () => {
    const userId = await userWithSessions(1, 3, [FAILED]);
    const response = await confirm(await signInAs(app, userId), 3);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'QUIZ_NOT_PASSED' });
  });

  it.each([
    ['never took the quiz', []],
    ['failed the latest session after an earlier pass', [PASSED, FAILED]],
    ['is still running the latest session', [PASSED, RUNNING]],
  ])('answers 403 to a user who %s', async (_what, statuses) => {
    const userId = await userWithSessions(0, 1, statuses);
    const other = await signInAs(app, userId);
    const response = await confirm(await signInAs(app, userId), 1);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'QUIZ_NOT_PASSED' });
    expect(await roleOf(userId)).toBe(0);
    expect((await current(other)).statusCode).toBe(200);
  });

  it.each([
    ['an unknown quiz', '99', 'QUIZ_NOT_FOUND'],
    ['a quiz id with a leading zero', '01', 'NOT_FOUND'],
    ['quiz id 0', '0', 'NOT_FOUND'],
    ['a quiz id of letters', 'abc', 'NOT_FOUND'],
    ['a quiz id beyond 32 bits', '4294967297', 'NOT_FOUND'],
  ])('answers 404 for %s', async (_what, quizId, code) => {
    const userId = await userWithSessions(0, 1, [PASSED]);
    const response = await confirm(await signInAs(app, userId), quizId);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code });
    expect(await roleOf(userId)).toBe(0);
  });

  it('answers 401 without a session', async () => {
    const response = await confirm(null, 1);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('refuses a confirmation without the CSRF token and changes nothing', async () => {
    const userId = await userWithSessions(0, 1, [PASSED]);
    const other = await signInAs(app, userId);
    const response = await confirm(await signInAs(app, userId), 1, false);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CSRF_FAILED' });
    expect(await roleOf(userId)).toBe(0);
    expect((await current(other)).statusCode).toBe(200);
  });

  it('answers 403 and changes nothing when a newer session starts while confirming', async () => {
    const userId = await userWithSessions(0, 1, [FAILED, PASSED]);
    const other = await signInAs(app, userId);
    // The newer session arrives after the passed one was looked at, before it is marked: a
    // trigger on the role update (the first write of the confirmation) starts a failed one.
    await sql(`create function start_quiz_session() returns trigger language plpgsql as $$
      begin
        insert into quiz_sessions (user_id, quiz_id, status, started_at)
        values (new.id, 1, ${FAILED}, clock_timestamp());
        return null;
      end $$`);
    await sql(`create trigger start_quiz_session after update on users
      for each row when (new.id = ${userId}) execute function start_quiz_session()`);
    try {
      const response = await confirm(await signInAs(app, userId), 1);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'QUIZ_NOT_PASSED' });
    } finally {
      await sql('drop trigger start_quiz_session on users');
      await sql('drop function start_quiz_session');
    }
    expect(await roleOf(userId)).toBe(0);
    const confirmed = await sql<{ n: number }[]>(
      'select count(*)::int as n from quiz_sessions where user_id = ? and confirmed_at is not null',
      [userId],
    );
    expect(confirmed[0]!.n).toBe(0);
    expect((await current(other)).statusCode).toBe(200);
  });

  it('rolls the role back and ends no session when marking the quiz session fails', async () => {
    const userId = await userWithSessions(0, 1, [PASSED]);
    const other = await signInAs(app, userId);
    await sql(`create function fail_quiz_confirmation() returns trigger language plpgsql as $$
      begin raise exception 'confirmation refused by test'; end $$`);
    await sql(`create trigger fail_quiz_confirmation before update on quiz_sessions
      for each row when (new.user_id = ${userId}) execute function fail_quiz_confirmation()`);
    try {
      const response = await confirm(await signInAs(app, userId), 1);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
      expect(response.body).not.toContain('refused by test');
    } finally {
      await sql('drop trigger fail_quiz_confirmation on quiz_sessions');
      await sql('drop function fail_quiz_confirmation');
    }
    expect(await roleOf(userId)).toBe(0);
    expect((await current(other)).statusCode).toBe(200);
  });
});

import { QuizConfirmationSchema } from '@foodshare/schemas';
import { Value } from 'typebox/value';
import {
  type ApiClient,
  describe,
  expect,
  type Factories,
  ids,
  it,
  type Sql,
} from '../../test-support/fixtures.ts';
import { lockWaiters } from '../../test-support/sql.ts';

const PASSED = 1;
const FAILED = 2;
const RUNNING = 0;

/** An unverified user of the role with quiz sessions of the given statuses, oldest first. */
async function userWithSessions(
  sql: Sql,
  factory: Factories,
  role: number,
  quizId: number,
  statuses: number[],
): Promise<number> {
  const userId = await factory.user({
    firstName: 'Quentin',
    lastName: 'Quiz',
    role,
    verified: false,
  });
  for (const [i, status] of statuses.entries()) {
    await sql(
      `insert into quiz_sessions (user_id, quiz_id, status, started_at)
       values (?, ?, ?, now() - make_interval(days => ?))`,
      [userId, quizId, status, statuses.length - i],
    );
  }
  return userId;
}

const roleOf = async (sql: Sql, userId: number) =>
  (await sql<{ role: number }[]>('select role from users where id = ?', [userId]))[0]!.role;

const confirmedSessions = async (sql: Sql, userId: number) =>
  (
    await sql<{ n: number }[]>(
      'select count(*)::int as n from quiz_sessions where user_id = ? and confirmed_at is not null',
      [userId],
    )
  )[0]!.n;

/** Runs `during` while updates of `table` rows that match `when` raise an error. */
async function withFailingUpdates(
  sql: Sql,
  table: 'quiz_sessions' | 'users',
  when: string,
  during: () => Promise<void>,
): Promise<void> {
  await sql(`create function fail_by_test() returns trigger language plpgsql as $$
    begin raise exception 'refused by test'; end $$`);
  await sql(`create trigger fail_by_test before update on ${table}
    for each row when (${when}) execute function fail_by_test()`);
  try {
    await during();
  } finally {
    await sql(`drop trigger fail_by_test on ${table}`);
    await sql('drop function fail_by_test');
  }
}

const confirm = (client: ApiClient, quizId: number | string) =>
  client.post(`/api/users/current/quiz-sessions/${quizId}/confirmation`);

const current = (client: ApiClient) => client.get('/api/users/current');

describe('POST /api/users/current/quiz-sessions/{quizId}/confirmation', () => {
  it('raises carla to foodsaver, ends her other sessions and keeps this one', async ({
    app,
    as,
    sql,
  }) => {
    const phone = await as('carla');
    const laptop = await as('carla');
    const tablet = await as('carla');
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
    // The kept session carries the new role: its next request's caller is a foodsaver.
    const kept = await app.sessions.find(laptop.cookies.fs_session ?? '');
    expect(kept?.account).toMatchObject({ role: 1 });

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

  it.for<[string, number, number]>([
    ['foodsharer', 0, 2],
    ['foodsaver', 1, 2],
    ['store manager', 2, 2],
    ['ambassador', 3, 3],
    ['orga', 4, 4],
  ])(
    'a %s confirming the store manager quiz ends with role %i',
    async ([_who, role, after], { as, sql, factory }) => {
      const userId = await userWithSessions(sql, factory, role, 2, [PASSED]);
      const response = await confirm(await as(userId), 2);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ quizId: 2, role: after });
      expect(await roleOf(sql, userId)).toBe(after);
    },
  );

  it('never lowers a role: dana (ambassador) confirms the foodsaver quiz', async ({ as, sql }) => {
    const response = await confirm(await as('dana'), 1);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ role: 3 });
    expect(await roleOf(sql, ids.users.dana)).toBe(3);
  });

  it('answers 400 for a passed ambassador quiz, which grants no role to confirm', async ({
    as,
    sql,
    factory,
  }) => {
    const userId = await userWithSessions(sql, factory, 1, 3, [PASSED]);
    const response = await confirm(await as(userId), 3);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 400, code: 'QUIZ_NOT_CONFIRMABLE' });
    expect(await roleOf(sql, userId)).toBe(1);
  });

  it('answers 403 before 400: a failed ambassador quiz is not a passed one', async ({
    as,
    sql,
    factory,
  }) => {
    const userId = await userWithSessions(sql, factory, 1, 3, [FAILED]);
    const response = await confirm(await as(userId), 3);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'QUIZ_NOT_PASSED' });
  });

  it.for<[string, number[]]>([
    ['never took the quiz', []],
    ['failed the latest session after an earlier pass', [PASSED, FAILED]],
    ['is still running the latest session', [PASSED, RUNNING]],
  ])('answers 403 to a user who %s', async ([_what, statuses], { as, sql, factory }) => {
    const userId = await userWithSessions(sql, factory, 0, 1, statuses);
    const other = await as(userId);
    const response = await confirm(await as(userId), 1);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'QUIZ_NOT_PASSED' });
    expect(await roleOf(sql, userId)).toBe(0);
    expect((await current(other)).statusCode).toBe(200);
  });

  it.for<[string, string, string]>([
    ['an unknown quiz', '99', 'QUIZ_NOT_FOUND'],
    ['a quiz id with a leading zero', '01', 'NOT_FOUND'],
    ['quiz id 0', '0', 'NOT_FOUND'],
    ['a quiz id of letters', 'abc', 'NOT_FOUND'],
    ['a quiz id beyond 32 bits', '4294967297', 'NOT_FOUND'],
  ])('answers 404 for %s', async ([_what, quizId, code], { as, sql, factory }) => {
    const userId = await userWithSessions(sql, factory, 0, 1, [PASSED]);
    const response = await confirm(await as(userId), quizId);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code });
    expect(await roleOf(sql, userId)).toBe(0);
  });

  it('answers 401 without a session', async ({ anonymous }) => {
    const response = await confirm(anonymous, 1);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('refuses a confirmation without the CSRF token and changes nothing', async ({
    as,
    sql,
    factory,
  }) => {
    const userId = await userWithSessions(sql, factory, 0, 1, [PASSED]);
    const other = await as(userId);
    const response = await confirm((await as(userId)).withoutCsrf(), 1);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CSRF_FAILED' });
    expect(await roleOf(sql, userId)).toBe(0);
    expect((await current(other)).statusCode).toBe(200);
  });

  it('answers 403 and changes nothing when a newer session starts while confirming', async ({
    app,
    as,
    sql,
    factory,
  }) => {
    const userId = await userWithSessions(sql, factory, 0, 1, [FAILED, PASSED]);
    const other = await as(userId);
    const client = await as(userId);
    let response: ReturnType<typeof confirm> | undefined;
    // The test holds the passed session, so that the confirmation has looked it up and waits
    // for it; a newer session starts and commits before the confirmation may mark anything.
    await app.orm.em.fork().transactional(async (tx) => {
      await tx.execute('select id from quiz_sessions where user_id = ? and status = ? for update', [
        userId,
        PASSED,
      ]);
      response = confirm(client, 1);
      await lockWaiters(sql, 1);
      await tx.execute(
        `insert into quiz_sessions (user_id, quiz_id, status, started_at)
         values (?, 1, ?, clock_timestamp())`,
        [userId, FAILED],
      );
    });
    const refused = await response!;
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'QUIZ_NOT_PASSED' });
    expect(await roleOf(sql, userId)).toBe(0);
    expect(await confirmedSessions(sql, userId)).toBe(0);
    expect((await current(other)).statusCode).toBe(200);
  });

  // Either write of the one statement failing leaves neither: no role, no confirmed session,
  // no session ended, and nothing of the database's error in the answer.
  it.for([
    { step: 'marking the quiz session', table: 'quiz_sessions', row: 'new.user_id' },
    { step: 'raising the role', table: 'users', row: 'new.id' },
  ] as const)(
    'changes nothing and ends no session when $step fails',
    async ({ table, row }, { as, sql, factory }) => {
      const userId = await userWithSessions(sql, factory, 0, 1, [PASSED]);
      const other = await as(userId);
      await withFailingUpdates(sql, table, `${row} = ${userId}`, async () => {
        const response = await confirm(await as(userId), 1);
        expect(response.statusCode).toBe(500);
        expect(response.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
        expect(response.body).not.toContain('refused by test');
      });
      expect(await roleOf(sql, userId)).toBe(0);
      expect(await confirmedSessions(sql, userId)).toBe(0);
      expect((await current(other)).statusCode).toBe(200);
    },
  );
});

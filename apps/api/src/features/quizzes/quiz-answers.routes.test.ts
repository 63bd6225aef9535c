import { QuizAnswerListSchema, QuizAnswerSchema } from '@foodshare/schemas';
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

const QUIZ_GROUP = 341;
/** An extra quiz (4) outside the quiz group's care. */
const OTHER_QUIZ = 4;

/** A fresh question of the quiz with two answers: [questionId, firstAnswerId, secondAnswerId]. */
async function question(sql: Sql, quizId: number): Promise<[number, number, number]> {
  const q = await sql<{ id: number }[]>(
    "insert into quiz_questions (quiz_id, text) values (?, 'Frage?') returning id",
    [quizId],
  );
  const questionId = q[0]!.id;
  const answers = await sql<{ id: number }[]>(
    `insert into quiz_answers (question_id, text, is_right, explanation)
     values (?, 'Ja', true, null), (?, 'Nein', false, 'Weil.') returning id`,
    [questionId, questionId],
  );
  return [questionId, answers[0]!.id, answers[1]!.id];
}

const exists = async (sql: Sql, answerId: number) =>
  (await sql<unknown[]>('select 1 from quiz_answers where id = ?', [answerId])).length > 0;

const remove = (client: ApiClient, path: [number | string, number | string, number | string]) =>
  client.delete(`/api/quiz/${path[0]}/questions/${path[1]}/answers/${path[2]}`);

const list = (client: ApiClient, quizId: number | string, questionId: number | string) =>
  client.get(`/api/quiz/${quizId}/questions/${questionId}/answers`);

describe('quiz answers: DELETE and GET /api/quiz/{quizId}/questions/{questionId}/answers', () => {
  let quizGroupAdmin: number;
  let quizGroupMember: number;
  let roleUsers: number[] = [];

  test.beforeAll(async ({ sql, factory }) => {
    roleUsers = await factory.userOfEachRole();
    quizGroupAdmin = await factory.user({ role: 1 });
    quizGroupMember = await factory.user({ role: 3 });
    await factory.addAdmin(QUIZ_GROUP, quizGroupAdmin);
    await factory.addMember(QUIZ_GROUP, quizGroupAdmin, quizGroupMember);
    await sql("insert into quizzes (id, name, granted_role) values (?, 'Sonderquiz', 0)", [
      OTHER_QUIZ,
    ]);
  });

  it('lists the answers, deletes one, and the list shows it gone', async ({ as, sql }) => {
    const orga = await as('orga');
    const [questionId, right, wrong] = await question(sql, 1);
    const before = await list(orga, 1, questionId);
    expect(before.statusCode).toBe(200);
    expect(Value.Check(QuizAnswerListSchema, before.json())).toBe(true);
    expect(before.json()).toEqual([
      { id: right, questionId, text: 'Ja', isRight: true, explanation: null },
      { id: wrong, questionId, text: 'Nein', isRight: false, explanation: 'Weil.' },
    ]);

    const response = await remove(orga, [1, questionId, wrong]);
    expect(response.statusCode).toBe(200);
    expect(Value.Check(QuizAnswerSchema, response.json())).toBe(true);
    expect(response.json()).toEqual({
      id: wrong,
      questionId,
      text: 'Nein',
      isRight: false,
      explanation: 'Weil.',
    });
    expect((await list(orga, 1, questionId)).json()).toEqual([before.json()[0]]);

    const again = await remove(orga, [1, questionId, wrong]);
    expect(again.statusCode).toBe(404);
  });

  it('lists a question without answers as an empty list', async ({ as, sql }) => {
    const orga = await as('orga');
    const [questionId, right, wrong] = await question(sql, 2);
    await sql('delete from quiz_answers where id in (?)', [[right, wrong]]);
    const response = await list(orga, 2, questionId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  describe.each([1, 2, 3, OTHER_QUIZ])('permissions on quiz %i', (quizId) => {
    const inQuizGroupCare = quizId <= 3;
    it.for<[string, () => number, boolean]>([
      ['foodsharer (0)', () => roleUsers[0]!, false],
      ['foodsaver (1)', () => roleUsers[1]!, false],
      ['store manager (2)', () => roleUsers[2]!, false],
      ['ambassador (3)', () => roleUsers[3]!, false],
      ['orga (4)', () => roleUsers[4]!, true],
      ['admin of the quiz group (341)', () => quizGroupAdmin, inQuizGroupCare],
      ['plain member of the quiz group', () => quizGroupMember, false],
      ['dana, ambassador of Musterstadt', () => ids.users.dana, false],
    ])('%s', async ([_who, user, allowed], { as, sql }) => {
      const client = await as(user());
      const [questionId, answerId] = await question(sql, quizId);
      const response = await remove(client, [quizId, questionId, answerId]);
      expect(response.statusCode).toBe(allowed ? 200 : 403);
      if (!allowed) expect(response.json()).toMatchObject({ code: 'QUIZ_ANSWERS_FORBIDDEN' });
      expect(await exists(sql, answerId)).toBe(!allowed);
      expect((await list(client, quizId, questionId)).statusCode).toBe(allowed ? 200 : 403);
    });
  });

  it('answers 401 without a session', async ({ sql, anonymous }) => {
    const [questionId, answerId] = await question(sql, 1);
    expect((await remove(anonymous, [1, questionId, answerId])).statusCode).toBe(401);
    expect((await list(anonymous, 1, questionId)).statusCode).toBe(401);
    expect(await exists(sql, answerId)).toBe(true);
  });

  it('refuses a deletion without the CSRF token', async ({ as, sql }) => {
    const [questionId, answerId] = await question(sql, 1);
    const response = await remove((await as('orga')).withoutCsrf(), [1, questionId, answerId]);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CSRF_FAILED' });
    expect(await exists(sql, answerId)).toBe(true);
  });

  it('answers 404 when the answer, question and quiz do not belong together', async ({
    as,
    sql,
  }) => {
    const orga = await as('orga');
    const [questionId, answerId] = await question(sql, 1);
    const [otherQuestionId] = await question(sql, 1);
    const [questionOfQuiz2] = await question(sql, 2);
    const cases: [number, number, number][] = [
      [1, otherQuestionId, answerId],
      [2, questionId, answerId],
      [99, questionId, answerId],
      [1, 2_000_000_000, answerId],
      [1, questionId, 2_000_000_000],
    ];
    for (const path of cases) {
      const response = await remove(orga, path);
      expect(response.statusCode, path.join('/')).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect(await exists(sql, answerId)).toBe(true);
    expect((await list(orga, 1, questionOfQuiz2)).statusCode).toBe(404);
    expect((await list(orga, 99, questionId)).statusCode).toBe(404);
  });

  it('reads ids with leading zeros as digits (pattern \\d+) and answers 404 to other values', async ({
    as,
    sql,
  }) => {
    const orga = await as('orga');
    const [questionId, answerId, otherAnswerId] = await question(sql, 1);
    const padded = await remove(orga, ['01', `0${questionId}`, `00${answerId}`]);
    expect(padded.statusCode).toBe(200);
    expect(padded.json()).toMatchObject({ id: answerId });
    for (const path of [
      ['abc', questionId, otherAnswerId],
      [1, '-1', otherAnswerId],
      [1, questionId, '4294967296'],
      ['4294967297', questionId, otherAnswerId],
      [1, questionId, '1.0'],
    ] as [string | number, string | number, string | number][]) {
      const response = await remove(orga, path);
      expect(response.statusCode, path.join('/')).toBe(404);
    }
    expect(await exists(sql, otherAnswerId)).toBe(true);
  });
});

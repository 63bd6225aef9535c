import { QuizSessionStatus, Role } from '@foodshare/domain';
import { describe, expect, it } from './fixtures.ts';
import { webClient } from './web-client.ts';

/**
 * The platform's web client, client/src/api/quiz.js: `confirmQuiz` is `post()` without a body,
 * so it sends `Content-Type: application/json; charset=utf-8` and nothing else.
 */
describe('web client: quiz.js', () => {
  it('confirmQuiz', async ({ I }) => {
    const user = await I.createFoodsaver();
    await I.haveQuizSession(user.id, 2, QuizSessionStatus.Passed);
    const response = await webClient.post(
      I.app,
      await I.login(user),
      '/users/current/quiz-sessions/2/confirmation',
    );
    expect(response.statusCode).toBe(200);
    expect(await I.roleOf(user.id)).toBe(Role.StoreManager);
  });

  it('confirmQuiz of a quiz not passed', async ({ I }) => {
    const user = await I.createFoodsaver();
    await I.haveQuizSession(user.id, 2, QuizSessionStatus.Failed);
    const response = await webClient.post(
      I.app,
      await I.login(user),
      '/users/current/quiz-sessions/2/confirmation',
    );
    expect(response.statusCode).toBe(403);
    expect(await I.roleOf(user.id)).toBe(Role.Foodsaver);
  });
});

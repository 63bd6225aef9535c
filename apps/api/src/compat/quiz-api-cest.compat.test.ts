import { QuizSessionStatus, Role } from '@foodshare/domain';
import { describe, expect, it } from './fixtures.ts';
import type { ApiTester } from './api-tester.ts';
import { platformRequest } from './platform-client.ts';

/** The platform's tests/Api/QuizApiCest.php, its scenarios of confirming a passed quiz. */
describe('QuizApiCest', () => {
  const confirm = async (I: ApiTester, quizId: number, user: { id: number; email: string }) =>
    platformRequest(I.app, await I.login(user), {
      method: 'POST',
      url: `/api/users/current/quiz-sessions/${quizId}/confirmation`,
    });

  it('canConfirmQuiz', async ({ I }) => {
    const foodsharer = await I.createFoodsharer();
    await I.haveQuizSession(foodsharer.id, 1, QuizSessionStatus.Passed);
    expect(await I.roleOf(foodsharer.id)).not.toBe(Role.Foodsaver);
    const response = await confirm(I, 1, foodsharer);
    expect(response.statusCode).toBe(200);
    expect(await I.roleOf(foodsharer.id)).toBe(Role.Foodsaver);
  });

  it('cannotConfirmUnconfirmableQuiz', async ({ I }) => {
    const storeManager = await I.createStoreCoordinator();
    await I.haveQuizSession(storeManager.id, 3, QuizSessionStatus.Passed);
    const response = await confirm(I, 3, storeManager);
    expect(response.statusCode).toBe(400);
    expect(await I.roleOf(storeManager.id)).toBe(Role.StoreManager);
  });

  it('cannotConfirmUnpassedQuiz', async ({ I }) => {
    const foodsharer = await I.createFoodsharer();
    expect((await confirm(I, 1, foodsharer)).statusCode).toBe(403);
    await I.haveQuizSession(foodsharer.id, 1, QuizSessionStatus.Failed);
    expect((await confirm(I, 1, foodsharer)).statusCode).toBe(403);
    expect(await I.roleOf(foodsharer.id)).toBe(Role.Foodsharer);
    await I.haveQuizSession(foodsharer.id, 1, QuizSessionStatus.Passed);
    expect((await confirm(I, 1, foodsharer)).statusCode).toBe(200);
    expect(await I.roleOf(foodsharer.id)).toBe(Role.Foodsaver);
  });

  it('cannotUseInvalidQuizId (for the confirmation)', async ({ I }) => {
    const foodsharer = await I.createFoodsharer();
    expect((await confirm(I, 10, foodsharer)).statusCode).toBe(404);
  });
});

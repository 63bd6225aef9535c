import { QuizSessionStatus, Role } from '@foodshare/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTester } from './api-tester.ts';
import { platformRequest } from './platform-client.ts';

/** The platform's tests/Api/QuizApiCest.php, its scenarios of confirming a passed quiz. */
describe('QuizApiCest', () => {
  let I: ApiTester;

  beforeAll(async () => {
    I = await ApiTester.start();
  });
  afterAll(() => I.stop());

  const confirm = async (quizId: number, user: { id: number; email: string }) =>
    platformRequest(I.app, await I.login(user), {
      method: 'POST',
      url: `/api/users/current/quiz-sessions/${quizId}/confirmation`,
    });

  it('canConfirmQuiz', async () => {
    const foodsharer = await I.createFoodsharer();
    await I.haveQuizSession(foodsharer.id, 1, QuizSessionStatus.Passed);
    expect(await I.roleOf(foodsharer.id)).not.toBe(Role.Foodsaver);
    const response = await confirm(1, foodsharer);
    expect(response.statusCode).toBe(200);
    expect(await I.roleOf(foodsharer.id)).toBe(Role.Foodsaver);
  });

  it('cannotConfirmUnconfirmableQuiz', async () => {
    const storeManager = await I.createStoreCoordinator();
    await I.haveQuizSession(storeManager.id, 3, QuizSessionStatus.Passed);
    const response = await confirm(3, storeManager);
    expect(response.statusCode).toBe(400);
    expect(await I.roleOf(storeManager.id)).toBe(Role.StoreManager);
  });

  it('cannotConfirmUnpassedQuiz', async () => {
    const foodsharer = await I.createFoodsharer();
    expect((await confirm(1, foodsharer)).statusCode).toBe(403);
    await I.haveQuizSession(foodsharer.id, 1, QuizSessionStatus.Failed);
    expect((await confirm(1, foodsharer)).statusCode).toBe(403);
    expect(await I.roleOf(foodsharer.id)).toBe(Role.Foodsharer);
    await I.haveQuizSession(foodsharer.id, 1, QuizSessionStatus.Passed);
    expect((await confirm(1, foodsharer)).statusCode).toBe(200);
    expect(await I.roleOf(foodsharer.id)).toBe(Role.Foodsaver);
  });

  it('cannotUseInvalidQuizId (for the confirmation)', async () => {
    const foodsharer = await I.createFoodsharer();
    expect((await confirm(10, foodsharer)).statusCode).toBe(404);
  });
});

import { describe, expect, it } from 'vitest';
import { QuizSessionStatus, Role } from '../enums.ts';
import type { Decision } from './actor.ts';
import {
  QUIZ_CONFIRMATION_REFUSAL_STATUS,
  type QuizConfirmationRefusal,
  mayConfirmQuiz,
  mayDeleteQuizAnswer,
  roleAfterQuizConfirmation,
} from './quiz.permissions.ts';
import { ALL_ROLES, actorWith, forEveryActor } from './test-support/actor-matrix.ts';

type Expected = 'allowed' | QuizConfirmationRefusal;

function outcome(decision: Decision<QuizConfirmationRefusal>): Expected {
  return decision.allowed ? 'allowed' : decision.reason;
}

describe('mayConfirmQuiz', () => {
  const cases: [string, Parameters<typeof mayConfirmQuiz>[1], Expected][] = [
    ['foodsaver quiz passed', { quizId: 1, quizExists: true, lastSessionStatus: 1 }, 'allowed'],
    ['store manager quiz passed', { quizId: 2, quizExists: true, lastSessionStatus: 1 }, 'allowed'],
    [
      'ambassador quiz passed',
      { quizId: 3, quizExists: true, lastSessionStatus: 1 },
      'QUIZ_NOT_CONFIRMABLE',
    ],
    ['unknown quiz', { quizId: 99, quizExists: false, lastSessionStatus: null }, 'QUIZ_NOT_FOUND'],
    [
      'unknown quiz 1 (missing row)',
      { quizId: 1, quizExists: false, lastSessionStatus: 1 },
      'QUIZ_NOT_FOUND',
    ],
    [
      'foodsaver quiz failed',
      { quizId: 1, quizExists: true, lastSessionStatus: QuizSessionStatus.Failed },
      'QUIZ_NOT_PASSED',
    ],
    [
      'foodsaver quiz running',
      { quizId: 1, quizExists: true, lastSessionStatus: QuizSessionStatus.Running },
      'QUIZ_NOT_PASSED',
    ],
    [
      'store manager quiz never taken',
      { quizId: 2, quizExists: true, lastSessionStatus: null },
      'QUIZ_NOT_PASSED',
    ],
    [
      'non-confirmable quiz not passed',
      { quizId: 3, quizExists: true, lastSessionStatus: QuizSessionStatus.Failed },
      'QUIZ_NOT_PASSED',
    ],
    [
      'non-confirmable quiz never taken',
      { quizId: 3, quizExists: true, lastSessionStatus: null },
      'QUIZ_NOT_PASSED',
    ],
  ];
  const table = cases.flatMap(([label, facts, expected]) =>
    forEveryActor(label, facts, ALL_ROLES).map(
      ([who, actor]) =>
        [`${who.replace(/: allowed$/, '')} -> ${expected}`, actor, facts, expected] as const,
    ),
  );
  it.each(table)('%s', (_who, actor, facts, expected) => {
    expect(outcome(mayConfirmQuiz(actor, facts))).toBe(expected);
  });

  it.each([
    ['QUIZ_NOT_FOUND', 404],
    ['QUIZ_NOT_CONFIRMABLE', 400],
    ['QUIZ_NOT_PASSED', 403],
  ] as const)('%s answers %i', (reason, status) => {
    expect(QUIZ_CONFIRMATION_REFUSAL_STATUS[reason]).toBe(status);
  });
});

describe('roleAfterQuizConfirmation', () => {
  it.each([
    [Role.Foodsharer, 1, Role.Foodsaver],
    [Role.Foodsharer, 2, Role.StoreManager],
    [Role.Foodsaver, 1, Role.Foodsaver],
    [Role.Foodsaver, 2, Role.StoreManager],
    [Role.StoreManager, 1, Role.StoreManager],
    [Role.Ambassador, 1, Role.Ambassador],
    [Role.Ambassador, 2, Role.Ambassador],
    [Role.Orga, 2, Role.Orga],
    [Role.Foodsharer, 3, Role.Foodsharer],
    [Role.Foodsaver, 99, Role.Foodsaver],
  ] as const)('role %i after quiz %i is %i', (role, quizId, expected) => {
    expect(roleAfterQuizConfirmation(actorWith(role), quizId)).toBe(expected);
  });
});

describe('mayDeleteQuizAnswer', () => {
  it.each([
    ...[1, 2, 3].flatMap((quizId) =>
      forEveryActor(
        `quiz group admin, quiz ${quizId}`,
        { quizId, isQuizGroupAdmin: true },
        ALL_ROLES,
      ),
    ),
    ...forEveryActor('quiz group admin, quiz 4', { quizId: 4, isQuizGroupAdmin: true }, [
      Role.Orga,
    ]),
    ...[1, 4].flatMap((quizId) =>
      forEveryActor(`not in the quiz group, quiz ${quizId}`, { quizId, isQuizGroupAdmin: false }, [
        Role.Orga,
      ]),
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayDeleteQuizAnswer(actor, facts)).toBe(expected);
  });
});

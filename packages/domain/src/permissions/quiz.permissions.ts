import { CONFIRMABLE_QUIZ_ROLES, QuizSessionStatus, type Role } from '../enums.ts';
import { type Actor, allow, type Decision, isOrga, refuse } from './actor.ts';

export type QuizConfirmationRefusal = 'QUIZ_NOT_FOUND' | 'QUIZ_NOT_CONFIRMABLE' | 'QUIZ_NOT_PASSED';

export const QUIZ_CONFIRMATION_REFUSAL_STATUS: Readonly<Record<QuizConfirmationRefusal, number>> = {
  QUIZ_NOT_FOUND: 404,
  QUIZ_NOT_CONFIRMABLE: 400,
  QUIZ_NOT_PASSED: 403,
};

export interface QuizConfirmationFacts {
  readonly quizId: number;
  readonly quizExists: boolean;
  /** Status of the actor's latest session of this quiz, null when they never started one. */
  readonly lastSessionStatus: QuizSessionStatus | null;
}

/** The role a quiz grants when its passing is confirmed, or undefined when it grants none. */
export function confirmableQuizRole(quizId: number): Role | undefined {
  return Object.hasOwn(CONFIRMABLE_QUIZ_ROLES, quizId) ? CONFIRMABLE_QUIZ_ROLES[quizId] : undefined;
}

/**
 * Checked in this order: an unknown quiz is 404, a latest session that is not a passed one 403,
 * a quiz granting no role 400 (only a passed session gets as far as asking what it grants).
 */
export function mayConfirmQuiz(
  _actor: Actor,
  facts: QuizConfirmationFacts,
): Decision<QuizConfirmationRefusal> {
  if (!facts.quizExists) return refuse('QUIZ_NOT_FOUND');
  if (facts.lastSessionStatus !== QuizSessionStatus.Passed) return refuse('QUIZ_NOT_PASSED');
  if (confirmableQuizRole(facts.quizId) === undefined) return refuse('QUIZ_NOT_CONFIRMABLE');
  return allow;
}

/** Confirming raises the role to the quiz's role and never lowers a higher one. */
export function roleAfterQuizConfirmation(actor: Actor, quizId: number): Role {
  const granted = confirmableQuizRole(quizId);
  return granted !== undefined && granted > actor.role ? granted : actor.role;
}

/** The quizzes the quiz group (341) looks after; every other quiz is orga's alone. */
export const QUIZ_GROUP_QUIZ_IDS: readonly number[] = [1, 2, 3];

export interface QuizAnswerFacts {
  readonly quizId: number;
  /** Admin of the quiz working group (341). */
  readonly isQuizGroupAdmin: boolean;
}

export function mayDeleteQuizAnswer(actor: Actor, facts: QuizAnswerFacts): boolean {
  if (isOrga(actor)) return true;
  return facts.isQuizGroupAdmin && QUIZ_GROUP_QUIZ_IDS.includes(facts.quizId);
}

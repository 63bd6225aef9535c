import {
  type Actor,
  type EntityManager,
  mayDeleteQuizAnswer,
  type QuizAnswerFacts,
  runSql,
} from '@foodshare/domain';
import type { QuizAnswer, QuizAnswerList } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import {
  type AnswerRef,
  answerOf,
  answersOf,
  answersQuery,
  deleteAnswerQuery,
  quizGroupAdminQuery,
} from './quizzes.sql.ts';

export type QuizQuestionRef = Omit<AnswerRef, 'answerId'>;

async function loadQuizAnswerFacts(
  em: EntityManager,
  actor: Actor,
  quizId: number,
): Promise<QuizAnswerFacts> {
  const [row] = await runSql(em, quizGroupAdminQuery(actor.id));
  return { quizId, isQuizGroupAdmin: row?.is_admin ?? false };
}

/**
 * Who may delete a quiz's answers is who curates the quiz, and so who may read them with
 * their right/wrong flags. Decided from the quiz id alone, before anything is looked up, so
 * that a refused caller learns nothing about which questions and answers exist.
 */
async function requireQuizCurator(em: EntityManager, actor: Actor, quizId: number): Promise<void> {
  checkQuizCurator(actor, await loadQuizAnswerFacts(em, actor, quizId));
}

function checkQuizCurator(actor: Actor, facts: QuizAnswerFacts): void {
  if (!mayDeleteQuizAnswer(actor, facts)) {
    throw Problem.forbidden(
      'QUIZ_ANSWERS_FORBIDDEN',
      'Only orga, or admins of the quiz group for quizzes 1 to 3, edit quiz answers.',
    );
  }
}

/** 404 unless the answer belongs to the question and the question to the quiz. */
export async function deleteQuizAnswer(
  em: EntityManager,
  actor: Actor,
  ref: AnswerRef,
): Promise<QuizAnswer> {
  await requireQuizCurator(em, actor, ref.quizId);
  const [deleted] = await runSql(em, deleteAnswerQuery(ref));
  if (!deleted) throw Problem.notFound('This quiz question has no such answer.');
  return answerOf(deleted);
}

/**
 * The answers of a question in the order they were written; 404 unless it is the quiz's. The
 * answers are read only for a curator.
 */
export async function listQuizAnswers(
  em: EntityManager,
  actor: Actor,
  ref: QuizQuestionRef,
): Promise<QuizAnswerList> {
  checkQuizCurator(actor, await loadQuizAnswerFacts(em, actor, ref.quizId));
  const rows = await runSql(em, answersQuery(ref.quizId, ref.questionId));
  if (rows.length === 0) throw Problem.notFound('This quiz has no such question.');
  return answersOf(rows);
}

import {
  type Actor,
  type EntityManager,
  mayDeleteQuizAnswer,
  WellKnownUnit,
} from '@foodshare/domain';
import type { QuizAnswer, QuizAnswerList } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';

export interface QuizQuestionRef {
  quizId: number;
  questionId: number;
}

/**
 * Who may delete a quiz's answers is who curates the quiz, and so who may read them with
 * their right/wrong flags. Decided from the quiz id alone, before anything is looked up, so
 * that a refused caller learns nothing about which questions and answers exist.
 */
async function requireQuizCurator(em: EntityManager, actor: Actor, quizId: number): Promise<void> {
  const rows = await em.execute<{ is_admin: boolean }[]>(
    'select exists (select 1 from region_admins where region_id = ? and user_id = ?) as is_admin',
    [WellKnownUnit.QuizGroup, actor.id],
  );
  const isQuizGroupAdmin = rows[0]?.is_admin ?? false;
  if (!mayDeleteQuizAnswer(actor, { quizId, isQuizGroupAdmin })) {
    throw Problem.forbidden(
      'QUIZ_ANSWERS_FORBIDDEN',
      'Only orga, or admins of the quiz group for quizzes 1 to 3, edit quiz answers.',
    );
  }
}

interface AnswerRow {
  id: number;
  question_id: number;
  text: string;
  is_right: boolean;
  explanation: string | null;
}

function toAnswer(row: AnswerRow): QuizAnswer {
  return {
    id: row.id,
    questionId: row.question_id,
    text: row.text,
    isRight: row.is_right,
    explanation: row.explanation,
  };
}

/** 404 unless the answer belongs to the question and the question to the quiz. */
export async function deleteQuizAnswer(
  em: EntityManager,
  actor: Actor,
  ref: QuizQuestionRef & { answerId: number },
): Promise<QuizAnswer> {
  await requireQuizCurator(em, actor, ref.quizId);
  const rows = await em.execute<AnswerRow[]>(
    `delete from quiz_answers a
      using quiz_questions q
      where a.id = ? and a.question_id = q.id and q.id = ? and q.quiz_id = ?
      returning a.id, a.question_id, a.text, a.is_right, a.explanation`,
    [ref.answerId, ref.questionId, ref.quizId],
  );
  const deleted = rows[0];
  if (!deleted) throw Problem.notFound('This quiz question has no such answer.');
  return toAnswer(deleted);
}

/** The answers of a question in the order they were written; 404 unless it is the quiz's. */
export async function listQuizAnswers(
  em: EntityManager,
  actor: Actor,
  ref: QuizQuestionRef,
): Promise<QuizAnswerList> {
  await requireQuizCurator(em, actor, ref.quizId);
  const rows = await em.execute<(Omit<AnswerRow, 'id'> & { id: number | null })[]>(
    `select a.id, q.id as question_id, a.text, a.is_right, a.explanation
       from quiz_questions q
       left join quiz_answers a on a.question_id = q.id
      where q.id = ? and q.quiz_id = ?
      order by a.id`,
    [ref.questionId, ref.quizId],
  );
  if (rows.length === 0) throw Problem.notFound('This quiz has no such question.');
  return rows.flatMap((row) => (row.id === null ? [] : [toAnswer({ ...row, id: row.id })]));
}

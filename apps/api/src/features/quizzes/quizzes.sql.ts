import { QuizSessionStatus, WellKnownUnit, type SqlQuery } from '@foodshare/domain';
import type { QuizAnswer, QuizAnswerList } from '@foodshare/schemas';
import { isoTimestamp } from '../../shared/sql.ts';

export function quizGroupAdminQuery(userId: number): SqlQuery<{ is_admin: boolean }> {
  return {
    sql: 'select exists (select 1 from region_admins where region_id = ? and user_id = ?) as is_admin',
    params: [WellKnownUnit.QuizGroup, userId],
  };
}

interface AnswerRow {
  id: number;
  question_id: number;
  text: string;
  is_right: boolean;
  explanation: string | null;
}

export function answerOf(row: AnswerRow): QuizAnswer {
  return {
    id: row.id,
    questionId: row.question_id,
    text: row.text,
    isRight: row.is_right,
    explanation: row.explanation,
  };
}

export interface AnswerRef {
  quizId: number;
  questionId: number;
  answerId: number;
}

/** Deletes the answer if it belongs to the question and the question to the quiz; no row else. */
export function deleteAnswerQuery(ref: AnswerRef): SqlQuery<AnswerRow> {
  return {
    sql: `delete from quiz_answers a
           using quiz_questions q
           where a.id = ? and a.question_id = q.id and q.id = ? and q.quiz_id = ?
           returning a.id, a.question_id, a.text, a.is_right, a.explanation`,
    params: [ref.answerId, ref.questionId, ref.quizId],
  };
}

/** Null `id` on the one row of a question without answers. */
type ListedAnswerRow = Omit<AnswerRow, 'id'> & { id: number | null };

/**
 * The answers of the quiz's question in the order they were written; no row at all when the
 * question is not the quiz's.
 */
export function answersQuery(quizId: number, questionId: number): SqlQuery<ListedAnswerRow> {
  return {
    sql: `select a.id, q.id as question_id, a.text, a.is_right, a.explanation
            from quiz_questions q
            left join quiz_answers a on a.question_id = q.id
           where q.id = ? and q.quiz_id = ?
           order by a.id`,
    params: [questionId, quizId],
  };
}

export function answersOf(rows: ListedAnswerRow[]): QuizAnswerList {
  return rows.flatMap((row) => (row.id === null ? [] : [answerOf({ ...row, id: row.id })]));
}

interface LastSessionRow {
  session_id: number | null;
  status: QuizSessionStatus | null;
}

/** The user's latest session of the quiz, by start. Takes the user id, then the quiz id. */
const LATEST_SESSION = `select id from quiz_sessions
                         where user_id = ? and quiz_id = ?
                         order by started_at desc, id desc
                         limit 1`;

/**
 * The user's latest session of the quiz, locked for the confirming transaction; no row: no
 * quiz, a row of nulls: no session.
 */
export function lockLastSessionQuery(userId: number, quizId: number): SqlQuery<LastSessionRow> {
  return {
    sql: `select s.id as session_id, s.status
            from quizzes q
            left join lateral (
                   select id, status from quiz_sessions
                    where user_id = ? and quiz_id = q.id
                    order by started_at desc, id desc
                    limit 1
                      for update) s on true
           where q.id = ?`,
    params: [userId, quizId],
  };
}

interface ConfirmationRow {
  confirmed_at: string | null;
  role: number | null;
}

/**
 * Marks the session confirmed (the first confirmation time is kept) and raises the user's role
 * to `role`, both in one statement or neither: the session only while it is still passed and
 * still the user's latest session of the quiz, the role only when the session was marked.
 * greatest(): a role raised by someone else since the actor was read is never lowered. One
 * row, of nulls when the session was not marked.
 */
export function confirmAndRaiseQuery(
  sessionId: number | null,
  userId: number,
  quizId: number,
  role: number,
): SqlQuery<ConfirmationRow> {
  return {
    sql: `with confirmed as (
            update quiz_sessions set confirmed_at = coalesce(confirmed_at, now())
             where id = ? and status = ? and id = (${LATEST_SESSION})
            returning confirmed_at),
          raised as (
            update users set role = greatest(role, ?)
             where id = ? and exists (select 1 from confirmed)
            returning role)
          select (select confirmed_at from confirmed) as confirmed_at,
                 (select role from raised) as role`,
    params: [sessionId, QuizSessionStatus.Passed, userId, quizId, role, userId],
  };
}

export interface ConfirmedQuiz {
  quizId: number;
  role: number;
  confirmedAt: string;
}

export function confirmedQuizOf(quizId: number, role: number, confirmedAt: string): ConfirmedQuiz {
  return { quizId, role, confirmedAt: isoTimestamp(confirmedAt) };
}

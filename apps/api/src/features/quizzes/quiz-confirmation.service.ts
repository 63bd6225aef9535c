import {
  type Actor,
  type EntityManager,
  mayConfirmQuiz,
  QUIZ_CONFIRMATION_REFUSAL_STATUS,
  roleAfterQuizConfirmation,
  runSql,
} from '@foodshare/domain';
import { Problem } from '@foodshare/server-kit';
import {
  type ConfirmedQuiz,
  confirmAndRaiseQuery,
  confirmedQuizOf,
  lockLastSessionQuery,
} from './quizzes.sql.ts';

const REFUSAL_DETAIL = {
  QUIZ_NOT_FOUND: 'There is no quiz with this id.',
  QUIZ_NOT_CONFIRMABLE: 'Only the foodsaver and the store manager quiz grant a role to confirm.',
  QUIZ_NOT_PASSED: 'Your latest session of this quiz is not a passed one.',
} as const;

const TITLES: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found' };

function refusal(reason: keyof typeof REFUSAL_DETAIL): Problem {
  const status = QUIZ_CONFIRMATION_REFUSAL_STATUS[reason];
  return new Problem({
    status,
    code: reason,
    title: TITLES[status] ?? 'Error',
    detail: REFUSAL_DETAIL[reason],
  });
}

/**
 * Raises the caller's role to the quiz's role (never lowers it) and marks their passed
 * session confirmed, both or neither, in one statement. The latest session is read and locked
 * inside the transaction, and the session is marked only while it is still passed and still
 * the latest when that statement runs: a session started meanwhile (running or failed) makes
 * it a 403 and changes nothing.
 * Confirming again is harmless: the role stays, the first confirmation time is kept. Ending
 * the other sessions is the caller's next step (Redis).
 */
export async function confirmPassedQuiz(
  em: EntityManager,
  actor: Actor,
  quizId: number,
): Promise<ConfirmedQuiz> {
  return em.transactional(async (tx) => {
    const query = lockLastSessionQuery(actor.id, quizId);
    const [last] = await runSql(tx, query);
    const decision = mayConfirmQuiz(actor, {
      quizId,
      quizExists: last !== undefined,
      lastSessionStatus: last?.status ?? null,
    });
    if (!decision.allowed) throw refusal(decision.reason);
    const role = roleAfterQuizConfirmation(actor, quizId);
    const sessionId = last?.session_id ?? null;
    const [marked] = await runSql(tx, confirmAndRaiseQuery(sessionId, actor.id, quizId, role));
    if (!marked?.confirmed_at) throw refusal('QUIZ_NOT_PASSED');
    if (marked.role === null) throw new Error('the confirmed user vanished');
    return confirmedQuizOf(quizId, marked.role, marked.confirmed_at);
  });
}

import {
  type Actor,
  type EntityManager,
  mayConfirmQuiz,
  QUIZ_CONFIRMATION_REFUSAL_STATUS,
  type QuizSessionStatus,
  roleAfterQuizConfirmation,
} from '@foodshare/domain';
import { Problem } from '@foodshare/server-kit';

const REFUSAL_DETAIL = {
  QUIZ_NOT_FOUND: 'There is no quiz with this id.',
  QUIZ_NOT_CONFIRMABLE: 'Only the foodsaver and the store manager quiz grant a role to confirm.',
  QUIZ_NOT_PASSED: 'Your latest session of this quiz is not a passed one.',
} as const;

const TITLES: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found' };

interface LastSessionRow {
  session_id: number | null;
  status: QuizSessionStatus | null;
}

export interface ConfirmedQuiz {
  quizId: number;
  role: number;
  confirmedAt: string;
}

/**
 * Raises the caller's role to the quiz's role (never lowers it) and marks their passed
 * session confirmed, both or neither. Confirming again is harmless: the role stays, the first
 * confirmation time is kept. Ending the other sessions is the caller's next step (Redis).
 */
export async function confirmPassedQuiz(
  em: EntityManager,
  actor: Actor,
  quizId: number,
): Promise<ConfirmedQuiz> {
  const rows = await em.execute<LastSessionRow[]>(
    `select s.id as session_id, s.status
       from quizzes q
       left join lateral (
              select id, status from quiz_sessions
               where user_id = ? and quiz_id = q.id
               order by started_at desc, id desc
               limit 1) s on true
      where q.id = ?`,
    [actor.id, quizId],
  );
  const last = rows[0];
  const decision = mayConfirmQuiz(actor, {
    quizId,
    quizExists: last !== undefined,
    lastSessionStatus: last?.status ?? null,
  });
  if (!decision.allowed) {
    const status = QUIZ_CONFIRMATION_REFUSAL_STATUS[decision.reason];
    throw new Problem({
      status,
      code: decision.reason,
      title: TITLES[status] ?? 'Error',
      detail: REFUSAL_DETAIL[decision.reason],
    });
  }
  const role = roleAfterQuizConfirmation(actor, quizId);
  return em.transactional(async (tx) => {
    // greatest(): a role raised by someone else since the actor was read is never lowered.
    const users = await tx.execute<{ role: number }[]>(
      'update users set role = greatest(role, ?) where id = ? returning role',
      [role, actor.id],
    );
    const sessions = await tx.execute<{ confirmed_at: string }[]>(
      `update quiz_sessions set confirmed_at = coalesce(confirmed_at, now())
        where id = ? returning confirmed_at`,
      [last?.session_id],
    );
    const user = users[0];
    const session = sessions[0];
    if (!user || !session) throw new Error('the confirmed user or quiz session vanished');
    return {
      quizId,
      role: user.role,
      confirmedAt: new Date(session.confirmed_at).toISOString(),
    };
  });
}

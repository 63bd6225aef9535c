import {
  type Actor,
  type EntityManager,
  mayConfirmQuiz,
  QUIZ_CONFIRMATION_REFUSAL_STATUS,
  QuizSessionStatus,
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

function refusal(reason: keyof typeof REFUSAL_DETAIL): Problem {
  const status = QUIZ_CONFIRMATION_REFUSAL_STATUS[reason];
  return new Problem({
    status,
    code: reason,
    title: TITLES[status] ?? 'Error',
    detail: REFUSAL_DETAIL[reason],
  });
}

/** The caller's latest session of the quiz, by start. */
const LATEST_SESSION = `select id from quiz_sessions
                         where user_id = ? and quiz_id = ?
                         order by started_at desc, id desc
                         limit 1`;

/**
 * Raises the caller's role to the quiz's role (never lowers it) and marks their passed
 * session confirmed, both or neither. The latest session is read and locked inside the
 * transaction, and the session is marked only while it is still passed and still the latest:
 * a session started meanwhile (running or failed) makes it a 403 and changes nothing.
 * Confirming again is harmless: the role stays, the first confirmation time is kept. Ending
 * the other sessions is the caller's next step (Redis).
 */
export async function confirmPassedQuiz(
  em: EntityManager,
  actor: Actor,
  quizId: number,
): Promise<ConfirmedQuiz> {
  return em.transactional(async (tx) => {
    const rows = await tx.execute<LastSessionRow[]>(
      `select s.id as session_id, s.status
         from quizzes q
         left join lateral (
                select id, status from quiz_sessions
                 where user_id = ? and quiz_id = q.id
                 order by started_at desc, id desc
                 limit 1
                   for update) s on true
        where q.id = ?`,
      [actor.id, quizId],
    );
    const last = rows[0];
    const decision = mayConfirmQuiz(actor, {
      quizId,
      quizExists: last !== undefined,
      lastSessionStatus: last?.status ?? null,
    });
    if (!decision.allowed) throw refusal(decision.reason);
    const role = roleAfterQuizConfirmation(actor, quizId);
    // greatest(): a role raised by someone else since the actor was read is never lowered.
    const users = await tx.execute<{ role: number }[]>(
      'update users set role = greatest(role, ?) where id = ? returning role',
      [role, actor.id],
    );
    const sessions = await tx.execute<{ confirmed_at: string }[]>(
      `update quiz_sessions set confirmed_at = coalesce(confirmed_at, now())
        where id = ? and status = ? and id = (${LATEST_SESSION})
        returning confirmed_at`,
      [last?.session_id, QuizSessionStatus.Passed, actor.id, quizId],
    );
    const user = users[0];
    const session = sessions[0];
    if (!user) throw new Error('the confirmed user vanished');
    if (!session) throw refusal('QUIZ_NOT_PASSED');
    return {
      quizId,
      role: user.role,
      confirmedAt: new Date(session.confirmed_at).toISOString(),
    };
  });
}

import {
  type Actor,
  decoyPasswordHash,
  type EntityManager,
  normalizeEmail,
  type Role,
  verifyPassword,
} from '@foodshare/domain';
import { Problem } from '../problem.ts';
import type { LoginAttempt, LoginThrottle } from './login-throttle.ts';

export interface Credentials {
  email: string;
  password: string;
  /** The client's address as the trusted proxy reports it. */
  ip: string;
}

interface AccountRow {
  id: number;
  password_hash: string;
  activated: boolean;
  role: Role;
  verified: boolean;
}

function invalidCredentials(): Problem {
  return new Problem({
    status: 401,
    code: 'INVALID_CREDENTIALS',
    title: 'Unauthorized',
    detail: 'Email address or password is wrong.',
  });
}

/**
 * The account could not be looked up (the database is unreachable). The user made no
 * mistake, so it is neither a 401 nor counted against anyone.
 */
function loginUnavailable(cause: unknown): Problem {
  // The same answer as any other request that meets a lost database (errors plugin).
  const problem = Problem.unavailable(
    'DATABASE_UNAVAILABLE',
    'Logging in is not possible right now. Please try again shortly.',
  );
  problem.cause = cause;
  return problem;
}

/**
 * Checks a login and returns the user's account (the session keeps it, docs/design.md §3.11). An unknown email and a wrong password get
 * the same answer after the same work (a decoy hash is verified), so the answer does not
 * tell which addresses have accounts. Shared by the REST login and the OAuth login page.
 */
export async function authenticate(
  em: EntityManager,
  throttle: LoginThrottle,
  credentials: Credentials,
): Promise<Actor> {
  const email = normalizeEmail(credentials.email);
  const admission = await throttle.admit(credentials.ip, email);
  if (!admission.admitted) throw Problem.tooManyRequests(Math.ceil(admission.waitMs / 1000));
  const { attempt } = admission;

  const user = await checkPassword(em, attempt, email, credentials.password);
  // A wrong password or an unknown account: the attempt stays counted.
  if (!user) throw invalidCredentials();
  await attempt.succeeded();
  // Told only to someone who knows the password, so it reveals nothing to a guesser.
  if (!user.activated) {
    throw Problem.conflict('ACCOUNT_NOT_ACTIVATED', 'This account has not been activated yet.');
  }
  await em.execute('update users set last_login_at = now() where id = ?', [user.id]);
  return { id: user.id, role: user.role, verified: user.verified };
}

/** The account when the password is right, else null; a check that cannot be made counts nothing. */
async function checkPassword(
  em: EntityManager,
  attempt: LoginAttempt,
  email: string,
  password: string,
): Promise<AccountRow | null> {
  try {
    const rows = await em.execute<AccountRow[]>(
      'select id, password_hash, activated, role, verified from users where email = ?',
      [email],
    );
    const user = rows[0];
    const matches = await verifyPassword(
      user?.password_hash ?? (await decoyPasswordHash()),
      password,
    );
    return user && matches ? user : null;
  } catch (error) {
    await attempt.abandoned();
    throw loginUnavailable(error);
  }
}

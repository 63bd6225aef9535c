import {
  decoyPasswordHash,
  type EntityManager,
  normalizeEmail,
  verifyPassword,
} from '@foodshare/domain';
import { Problem } from '../problem.ts';
import type { LoginThrottle } from './login-throttle.ts';

export interface Credentials {
  email: string;
  password: string;
  /** The client's address as the trusted proxy reports it. */
  ip: string;
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
 * Checks a login and returns the user's id. An unknown email and a wrong password get
 * the same answer after the same work (a decoy hash is verified), so the answer does not
 * tell which addresses have accounts. Shared by the REST login and the OAuth login page.
 */
export async function authenticate(
  em: EntityManager,
  throttle: LoginThrottle,
  credentials: Credentials,
): Promise<number> {
  const email = normalizeEmail(credentials.email);
  const waitMs = await throttle.admit(credentials.ip, email);
  if (waitMs > 0) throw Problem.tooManyRequests(Math.ceil(waitMs / 1000));

  const rows = await em.execute<{ id: number; password_hash: string; activated: boolean }[]>(
    'select id, password_hash, activated from users where email = ?',
    [email],
  );
  const user = rows[0];
  const matches = await verifyPassword(
    user?.password_hash ?? (await decoyPasswordHash()),
    credentials.password,
  );
  if (!user || !matches) throw invalidCredentials();
  await throttle.succeeded(credentials.ip, email);
  // Told only to someone who knows the password, so it reveals nothing to a guesser.
  if (!user.activated) {
    throw Problem.conflict('ACCOUNT_NOT_ACTIVATED', 'This account has not been activated yet.');
  }
  await em.execute('update users set last_login_at = now() where id = ?', [user.id]);
  return user.id;
}

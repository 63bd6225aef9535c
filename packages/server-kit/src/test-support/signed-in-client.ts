import type { FastifyInstance } from 'fastify';
import { readAccount } from '../actor.ts';

/** What a logged-in browser sends: the session cookie, and the CSRF token echoed in its header. */
export interface SignedInClient {
  userId: number;
  cookies: Record<string, string>;
  headers: { 'x-csrf-token': string };
}

export interface SignInOptions {
  /**
   * false: a session as the release before account facts wrote it, so that its requests read
   * the account from PostgreSQL (a change made behind the sessions' back, in SQL, shows).
   */
  accountFacts?: boolean;
}

/**
 * A session for a user, as the login routes start one (with the account's facts), with the
 * cookies the session plugin would set, so that `inject()` requests carry exactly what a browser
 * sends. For tests that must act as a user without typing the password (argon2id costs ~50 ms
 * a call). Not part of the package's entry point nor of its build:
 * `@foodshare/server-kit/test-support` resolves under the development condition only, which the
 * tests run with.
 */
export async function signInAs(
  app: FastifyInstance,
  userId: number,
  options: SignInOptions = {},
): Promise<SignedInClient> {
  await app.ready();
  const account =
    options.accountFacts === false ? null : await readAccount(app.orm.em.fork(), userId);
  const session = await app.sessions.create(userId, {
    rememberMe: false,
    account: account ?? undefined,
  });
  const names = app.sessionCookies.names;
  return {
    userId,
    cookies: { [names.session]: session.id, [names.csrf]: session.csrfToken },
    headers: { 'x-csrf-token': session.csrfToken },
  };
}

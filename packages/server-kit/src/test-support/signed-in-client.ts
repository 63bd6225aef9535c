import type { FastifyInstance } from 'fastify';

/** What a logged-in browser sends: the session cookie, and the CSRF token echoed in its header. */
export interface SignedInClient {
  userId: number;
  cookies: Record<string, string>;
  headers: { 'x-csrf-token': string };
}

/**
 * A session for a user, as the login routes start one, with the cookies the session plugin
 * would set, so that `inject()` requests carry exactly what a browser sends. For tests that must
 * act as a user without typing the password (argon2id costs ~50 ms a call). Not part of the
 * package's entry point nor of its build: `@foodshare/server-kit/test-support` resolves under
 * the development condition only, which the tests run with.
 */
export async function signInAs(app: FastifyInstance, userId: number): Promise<SignedInClient> {
  await app.ready();
  const session = await app.sessions.create(userId, { rememberMe: false });
  const names = app.sessionCookies.names;
  return {
    userId,
    cookies: { [names.session]: session.id, [names.csrf]: session.csrfToken },
    headers: { 'x-csrf-token': session.csrfToken },
  };
}

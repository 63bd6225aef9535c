import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { type IncomingMessage, request } from 'node:http';
import pg from 'pg';
import { waitFor } from './disposable-servers.ts';

/**
 * Starts a login request but holds back the end of its body, sends SIGTERM while the
 * server waits for it, then completes the body, and reports what the client got and how
 * the process ended. A graceful stop answers the request and exits with 0. Holding the
 * body makes "under way" certain however slow the machine is.
 */
export async function stopDuringRequest(
  child: ChildProcess,
  origin: string,
): Promise<{ status: number; exitCode: number | null }> {
  const body = JSON.stringify({ email: 'nobody@example.org', password: 'a password' });
  const pending = request(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const response = once(pending, 'response') as Promise<[IncomingMessage]>;
  await new Promise<void>((resolve) => pending.write(body.slice(0, 10), () => resolve()));
  // Long enough for an idle server to have accepted the connection and read the headers.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 50));
  pending.end(body.slice(10));
  const [message] = await response;
  message.resume();
  const [exitCode] = await exited;
  return { status: message.statusCode ?? 0, exitCode };
}

/** carla of the demo data: her passed session of quiz 1 awaits her confirmation. */
const CARLA = { email: 'carla@example.org', password: 'demo-password' };

/**
 * Logs carla in: a session of her own, as the cookie header and CSRF token to send with it.
 * Over a connection that closes after the answer, as a load generator's do at its end: an
 * idle one would hold the stop's drain for its second.
 */
async function logInCarla(origin: string): Promise<{ cookie: string; csrf: string }> {
  const body = JSON.stringify(CARLA);
  const login = request(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    agent: false,
  });
  const answered = once(login, 'response') as Promise<[IncomingMessage]>;
  login.end(body);
  const [response] = await answered;
  response.resume();
  if (response.statusCode !== 200) throw new Error(`login answered ${response.statusCode}`);
  const cookies = (response.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]!);
  const csrf =
    cookies.find((cookie) => cookie.startsWith('CSRF_TOKEN='))?.slice('CSRF_TOKEN='.length) ?? '';
  return { cookie: cookies.join('; '), csrf };
}

export interface StopWhileConfirmationIsHeld {
  exitCode: number | null;
  /** From SIGTERM to the release of the held row. */
  releasedMs: number;
  /** From SIGTERM to the exit. */
  exitedMs: number;
}

/**
 * A hold for {@link stopWhileConfirmationIsHeld}: long enough for a stop that does not wait to have
 * closed Redis and PostgreSQL before the handler goes on.
 */
export const holdHalfASecond = () => new Promise<void>((resolve) => setTimeout(resolve, 500));

/**
 * The stop at a benchmark's end: carla (demo data) logs in twice and confirms her passed quiz
 * with one session while a transaction of the test holds her quiz session row, so that the
 * handler waits for it; once it waits, the client drops its connection (`client: 'leaves'`)
 * or keeps waiting for the answer (`'stays'`), SIGTERM follows, and the row is released when
 * `release` resolves. The handler then commits her new role and ends her other session in
 * Redis (the process logs `quiz confirmed` with `endedSessionCount: 1`) if the stop lets it
 * finish. The process must run with a statement timeout longer than the hold.
 */
export async function stopWhileConfirmationIsHeld(
  child: ChildProcess,
  origin: string,
  databaseUrl: string,
  release: () => Promise<void>,
  client: 'leaves' | 'stays' = 'leaves',
): Promise<StopWhileConfirmationIsHeld> {
  await logInCarla(origin);
  const { cookie, csrf } = await logInCarla(origin);
  const holder = new pg.Client({ connectionString: databaseUrl });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query(
      `select s.id from quiz_sessions s join users u on u.id = s.user_id
        where u.email = $1 and s.quiz_id = 1 for update of s`,
      [CARLA.email],
    );
    const pending = request(`${origin}/api/users/current/quiz-sessions/1/confirmation`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf },
      agent: false,
    });
    pending.on('error', () => undefined);
    pending.end();
    await waitFor('the confirmation to wait for the held row', async () => {
      const { rows } = await holder.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`,
      );
      return (rows[0]?.n ?? 0) > 0;
    });
    if (client === 'leaves') {
      pending.destroy();
      // Long enough for the server to have seen the connection close.
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const exited = once(child, 'exit') as Promise<[number | null]>;
    const started = performance.now();
    child.kill('SIGTERM');
    try {
      await release();
    } finally {
      await holder.query('commit');
    }
    const releasedMs = performance.now() - started;
    const [exitCode] = await exited;
    return { exitCode, releasedMs, exitedMs: performance.now() - started };
  } finally {
    await holder.end();
  }
}

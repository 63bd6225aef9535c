import pg from 'pg';
import type { ApiApp } from './app.ts';
import { describe, expect, ids, it, test } from './test-support/fixtures.ts';

/** A promise with its resolve, for steps of two transactions taken in a set order. */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/**
 * A deadlock or serialization failure, provoked for real between a request's transaction and a
 * second connection, reaches the central error handler from the driver like any other error:
 * it must answer 503 DATABASE_CONFLICT with Retry-After, not 500, as the transaction changed
 * nothing and the same request sent again is expected to succeed.
 */
describe('a transaction PostgreSQL rolls back for a concurrent one', () => {
  let other: pg.Client;
  let step: { lockedFirst: ReturnType<typeof signal>; goOn: ReturnType<typeof signal> };

  test.beforeAll(({ app, testApp }) => {
    // Probe routes: transactions in the shape of the real ones, paused where the test says.
    app.post('/api/test-deadlock', async (request) => {
      await request.em.transactional(async (tx) => {
        await tx.execute('select id from users where id = ? for update', [ids.users.alice]);
        step.lockedFirst.resolve();
        await tx.execute('select id from users where id = ? for update', [ids.users.bob]);
      });
      return { done: true };
    });
    app.post('/api/test-serialization', async (request) => {
      await request.em.transactional(async (tx) => {
        await tx.execute('set transaction isolation level repeatable read');
        await tx.execute('select id from users where id = ?', [ids.users.alice]);
        step.lockedFirst.resolve();
        await step.goOn.promise;
        await tx.execute('update users set id = id where id = ?', [ids.users.alice]);
      });
      return { done: true };
    });
    // A connection of its own, not a pool: it holds locks across the request's statements.
    other = new pg.Client({ connectionString: testApp.database.url });
    return other.connect();
  });

  test.afterAll(async () => {
    await other?.end();
  });

  /** Sessions of this test's own database waiting for a lock (others share the server). */
  const waitingForLocks = async () =>
    Number(
      (
        await other.query<{ n: string }>(
          `select count(*) as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        )
      ).rows[0]?.n,
    );

  function expectConflict(response: Awaited<ReturnType<ApiApp['inject']>>) {
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toMatchObject({ status: 503, code: 'DATABASE_CONFLICT' });
  }

  it('answers a deadlock (40P01) with 503 DATABASE_CONFLICT and Retry-After', async ({ app }) => {
    step = { lockedFirst: signal(), goOn: signal() };
    // The other transaction detects late, so the request's is the one PostgreSQL ends.
    await other.query("set deadlock_timeout = '20s'");
    await other.query('begin');
    await other.query('select id from users where id = $1 for update', [ids.users.bob]);
    const answer = app.inject({ method: 'POST', url: '/api/test-deadlock' });
    await step.lockedFirst.promise;
    // The request now waits for bob's row; take alice's, which it holds: a cycle.
    while ((await waitingForLocks()) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const crossing = other.query('select id from users where id = $1 for update', [
      ids.users.alice,
    ]);
    const response = await answer;
    await crossing;
    await other.query('rollback');
    expectConflict(response);
  });

  it('answers a serialization failure (40001) with 503 DATABASE_CONFLICT', async ({ app }) => {
    step = { lockedFirst: signal(), goOn: signal() };
    const answer = app.inject({ method: 'POST', url: '/api/test-serialization' });
    await step.lockedFirst.promise;
    // Changed and committed after the request's snapshot: its own update cannot serialize.
    await other.query('update users set id = id where id = $1', [ids.users.alice]);
    step.goOn.resolve();
    expectConflict(await answer);
  });

  it('lets the same request succeed when nothing collides', async ({ app }) => {
    step = { lockedFirst: signal(), goOn: signal() };
    step.goOn.resolve();
    const response = await app.inject({ method: 'POST', url: '/api/test-serialization' });
    expect(response.statusCode).toBe(200);
  });
});

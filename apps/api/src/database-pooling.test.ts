import { signInAs } from '@foodshare/server-kit/test-support';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiApp } from './app.ts';
import { buildTestApp } from './test-support/build-test-app.ts';

// DATABASE_POOL_SIZE and DATABASE_PREPARED_STATEMENTS as a deployment behind PgBouncer in
// transaction mode sets them (docs/deploy.md §4).

const ids = inject('demoIds');
const POOL_SIZE = 2;

describe('the database pooling settings', () => {
  let app: ApiApp;

  beforeAll(async () => {
    ({ app } = await buildTestApp({
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      DATABASE_PREPARED_STATEMENTS: 'false',
    }));
    await app.ready();
  });

  afterAll(() => app.close());

  /** Each backend the pool holds, asked `sql` at the same time (each holds its connection). */
  async function onEveryConnection<T>(sql: string): Promise<T[]> {
    return (
      await Promise.all(
        Array.from({ length: POOL_SIZE * 3 }, () =>
          app.orm.em.fork().execute<T[]>(`${sql}, pg_sleep(0.2)`),
        ),
      )
    ).map((rows) => rows[0]!);
  }

  it('opens at most DATABASE_POOL_SIZE connections, however many queries wait', async () => {
    const rows = await onEveryConnection<{ pid: number }>('select pg_backend_pid() as pid');
    expect(new Set(rows.map((row) => row.pid)).size).toBe(POOL_SIZE);
  });

  it('serves the hot reads without leaving a named statement on any connection', async () => {
    const alice = await signInAs(app, ids.users.alice);
    for (let i = 0; i < 3; i++) {
      const current = await app.inject({
        method: 'GET',
        url: '/api/users/current',
        cookies: alice.cookies,
      });
      expect(current.statusCode).toBe(200);
    }
    const rows = await onEveryConnection<{ prepared: number }>(
      'select (select count(*) from pg_prepared_statements)::int as prepared',
    );
    expect(rows.map((row) => row.prepared)).toEqual(rows.map(() => 0));
  });
});

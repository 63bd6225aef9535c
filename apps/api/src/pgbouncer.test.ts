import { fileURLToPath } from 'node:url';
import { signInAs } from '@foodshare/server-kit/test-support';
import {
  type DisposablePgBouncer,
  startDisposablePgBouncer,
  testServiceEnv,
} from '@foodshare/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ApiApp, buildApp } from './app.ts';
import { loadConfig } from './config.ts';

// The service behind PgBouncer in transaction mode, run from the example configuration
// docker/pgbouncer.ini with DATABASE_PREPARED_STATEMENTS=false (docs/deploy.md §4): every
// request may meet another server connection than the one before it.

const ids = inject('demoIds');
const EXAMPLE = fileURLToPath(new URL('../../../docker/pgbouncer.ini', import.meta.url));

describe('the service behind PgBouncer in transaction mode', () => {
  let bouncer: DisposablePgBouncer;
  let app: ApiApp;

  beforeAll(async () => {
    const { env, database } = await testServiceEnv('api');
    bouncer = await startDisposablePgBouncer({ configFile: EXAMPLE, serverUrl: database.url });
    app = await buildApp(
      loadConfig({
        ...env,
        DATABASE_URL: bouncer.through(database.url),
        DATABASE_PREPARED_STATEMENTS: 'false',
        DATABASE_POOL_SIZE: '8',
      }),
    );
    await app.ready();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await bouncer?.dispose();
  });

  it('serves concurrent hot reads, each on whichever server connection is free', async () => {
    const alice = await signInAs(app, ids.users.alice);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        app.inject({ method: 'GET', url: '/api/users/current', cookies: alice.cookies }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    expect(answers[0]!.json()).toMatchObject({ id: ids.users.alice });
  });

  it('keeps the search index version counting writes, its per-backend rows and all', async () => {
    const em = () => app.orm.em.fork();
    const version = async () =>
      Number(
        (
          await em().execute<{ total: string }[]>(
            'select coalesce(sum(version), 0) as total from search_index_versions',
          )
        )[0]!.total,
      );
    const before = await version();
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        em().transactional((tx) =>
          tx.execute('update users set first_name = ? where id = ?', [
            `Alice ${i}`,
            ids.users.alice,
          ]),
        ),
      ),
    );
    // One bump per transaction that changed a user's indexed columns (migration
    // search_index_versions): six transactions, six bumps, whichever backend ran each.
    expect((await version()) - before).toBe(6);
  });
});

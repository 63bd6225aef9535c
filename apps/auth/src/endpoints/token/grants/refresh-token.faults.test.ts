import { type DemoDataIds, openOrm, prepareDemoDatabase, type MikroORM } from '@foodshare/domain';
import { type DisposablePostgres, startDisposablePostgres, waitFor } from '@foodshare/testing';
import type { AuthApp } from '../../../app.ts';
import { describe, expect, test as base } from '../../../test-support/fixtures.ts';
import type { TokenResponse } from '../issue-tokens.ts';
import {
  DemoClientId,
  refreshRequest,
  tokensFor,
  userinfoRequest,
} from '../../../test-support/token-helpers.ts';

/**
 * A refresh whose database fails after the refresh token was taken up for rotation: the
 * database of this file's own PostgreSQL loses the connection (pg_terminate_backend) or the whole
 * server stops while the grant reads the user. The client's retry with the same refresh token
 * must work: a fault costs a retry, never the grant.
 */
/** Closes an ORM whose connections a stopped server may have left half-open, without hanging. */
async function closeWithin(orm: MikroORM | undefined, timeoutMs = 3_000): Promise<void> {
  if (!orm) return;
  await Promise.race([
    orm.close().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, timeoutMs)),
  ]);
}

/** This file's own PostgreSQL server with the demo data, which the tests stop and start. */
const test = base.extend(
  'disposable',
  { scope: 'file' },
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's needs from this pattern
  async ({}, { onCleanup }): Promise<{ postgres: DisposablePostgres; demoIds: DemoDataIds }> => {
    const postgres = await startDisposablePostgres();
    onCleanup(() => postgres.dispose());
    return { postgres, demoIds: await prepareDemoDatabase(postgres.url) };
  },
);
const it = test;

test.override('appEnv', { scope: 'file' }, ({ disposable }) => ({
  DATABASE_URL: disposable.postgres.url,
}));

describe('refresh_token grant when the database fails mid-rotation', () => {
  let postgres: DisposablePostgres;
  let demoIds: DemoDataIds;
  let app: AuthApp;
  let control: MikroORM;

  test.beforeAll(async ({ app: ready, disposable }) => {
    // The helpers below are the file's and use its one app and server.
    ({ postgres, demoIds } = disposable);
    app = ready;
    control = await openOrm({ url: postgres.url, poolSize: 3 });
  }, 120_000);
  test.afterAll(async () => {
    await closeWithin(control);
  });

  const bob = () => demoIds.users.bob;
  const refresh = (token: string) => refreshRequest(app, DemoClientId.public, token);

  /** The backend of the auth app that waits for the lock on users, once it waits. */
  async function blockedBackend(): Promise<number> {
    let pid: number | undefined;
    await waitFor('the refresh waits for the lock on users', async () => {
      const rows = await control.em.fork().execute<{ pid: number }[]>(
        `select pid from pg_stat_activity
          where wait_event_type = 'Lock' and query ilike '%from users%' and pid <> pg_backend_pid()`,
      );
      pid = rows[0]?.pid;
      return pid !== undefined;
    });
    return pid!;
  }

  /**
   * Sends a refresh while a transaction of the test holds users locked, so that the grant waits
   * in its read of the user: after the token was leased, before anything was issued. Then
   * `fault` strikes, the lock goes, and the refresh's answer is returned. A refresh that fails
   * before it waits (a connection the pool still held from an earlier fault) is sent again, a
   * few times at most: the fault must strike mid-rotation.
   */
  async function refreshHitBy(token: string, fault: (pid: number) => Promise<void>) {
    for (let attempt = 1; ; attempt += 1) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockHeld = new Promise<void>((resolve) => (locked = resolve));
      const holder = control.em.fork().transactional(async (em) => {
        await em.execute('lock table users in access exclusive mode');
        locked();
        await released;
      });
      await lockHeld;
      const pending = refresh(token);
      try {
        const waiting = await Promise.race([pending, blockedBackend()]);
        if (typeof waiting === 'number') {
          await fault(waiting);
          return await pending;
        }
        if (waiting.statusCode < 500 || attempt === 5) {
          throw new Error(`answered without waiting: ${waiting.statusCode} ${waiting.body}`);
        }
      } finally {
        release();
        await holder.catch(() => undefined);
      }
    }
  }

  /** The client's retries while the service recovers (bounded): the first answer not a 5xx. */
  async function refreshUntilAnswered(token: string) {
    let response = await refresh(token);
    const deadline = Date.now() + 15_000;
    while (response.statusCode >= 500 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      response = await refresh(token);
    }
    return response;
  }

  async function expectRetryWorks(first: TokenResponse) {
    const retried = await refreshUntilAnswered(first.refresh_token!);
    expect(retried.statusCode, retried.body).toBe(200);
    const second = retried.json<TokenResponse>();
    expect((await userinfoRequest(app, second.access_token)).statusCode).toBe(200);
    expect((await refresh(second.refresh_token!)).statusCode).toBe(200);
  }

  it('keeps the grant when the connection is terminated during the refresh', async () => {
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId: bob() });
    const failed = await refreshHitBy(first.refresh_token!, async (pid) => {
      await control.em.fork().execute('select pg_terminate_backend(?)', [pid]);
    });
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    await expectRetryWorks(first);
  });

  it('keeps the grant when the database server stops during the refresh', async () => {
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId: bob() });
    const failed = await refreshHitBy(first.refresh_token!, () => postgres.stop());
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    await postgres.start();
    // The test's own connections died with the server too.
    await closeWithin(control);
    control = await openOrm({ url: postgres.url, poolSize: 3 });
    await expectRetryWorks(first);
  }, 60_000);

  it('loses none of 10 grants whose refreshes lose their connection, and still punishes replays', async () => {
    const grants = await Promise.all(
      Array.from({ length: 10 }, () =>
        tokensFor(app, { clientId: DemoClientId.public, userId: bob() }),
      ),
    );
    for (const grant of grants) {
      const failed = await refreshHitBy(grant.refresh_token!, async (pid) => {
        await control.em.fork().execute('select pg_terminate_backend(?)', [pid]);
      });
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    }
    const retried = await Promise.all(
      grants.map((grant) => refreshUntilAnswered(grant.refresh_token!)),
    );
    expect(retried.map((response) => response.statusCode)).toEqual(grants.map(() => 200));

    // The rotation that did complete used the token up: presenting it again is a replay (RFC 9700
    // 4.14.2), which revokes the family with the tokens the retry issued.
    const [grant] = grants;
    const rotated = retried[0]!.json<TokenResponse>();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await refresh(grant!.refresh_token!)).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await refresh(rotated.refresh_token!)).json()).toMatchObject({
      error: 'invalid_grant',
    });
    expect((await userinfoRequest(app, rotated.access_token)).statusCode).toBe(401);
  }, 120_000);
});

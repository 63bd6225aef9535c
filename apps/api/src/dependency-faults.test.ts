import { type DemoDataIds, prepareDemoDatabase } from '@foodshare/domain';
import { signInAs } from '@foodshare/server-kit/test-support';
import {
  type DisposablePostgres,
  type DisposableRedis,
  ensureDatabase,
  startDisposablePostgres,
  startDisposableRedis,
  withDatabaseName,
} from '@foodshare/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiApp } from './app.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { type UserClient, userClient } from './test-support/api-client.ts';

// PostgreSQL and Redis of this file's own, which it drops, pauses and stops: the service must
// answer 503 quickly while one is gone, never hang, and serve again by itself once it is back.

const POOL_SIZE = 10;
const STALLED_LIMIT_MS = 1_500;

describe('when PostgreSQL or Redis fails', () => {
  let postgres: DisposablePostgres;
  let redis: DisposableRedis;
  let databaseUrl: string;
  let ids: DemoDataIds;
  let app: ApiApp;
  let admin: pg.Client;
  let alice: UserClient;

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startDisposablePostgres(), startDisposableRedis()]);
    await ensureDatabase(postgres.url, 'faults');
    databaseUrl = withDatabaseName(postgres.url, 'faults');
    ids = await prepareDemoDatabase(databaseUrl);
    admin = new pg.Client({ connectionString: postgres.url });
    // Stopping the server ends this connection too; the stop is the point, not an error.
    admin.on('error', () => undefined);
    await admin.connect();
    app = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: databaseUrl,
        REDIS_URL: redis.url,
        POOL_STALLED_LIVENESS_MS: String(STALLED_LIMIT_MS),
      }),
    );
    alice = userClient(app, await signInAs(app, ids.users.alice));
  }, 120_000);

  afterAll(async () => {
    postgres?.resume();
    redis?.resume();
    await app?.close();
    await admin?.end().catch(() => undefined);
    await Promise.all([postgres?.dispose(), redis?.dispose()]);
  }, 60_000);

  const readMessages = (client: UserClient) =>
    client.get(`/api/conversations/${ids.conversationId}/messages`);

  const sendMessage = (client: UserClient, body: string) =>
    client.post(`/api/conversations/${ids.conversationId}/messages`, { body });

  /** The answer and how long it took, or 'hung' once the bound has passed. */
  async function timed<T>(request: Promise<T>, boundMs: number) {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), boundMs);
    });
    const answer = await Promise.race([request, hung]);
    clearTimeout(timer);
    return { answer, ms: performance.now() - started };
  }

  /** Retries until the service answers 200 again, for at most `boundMs`. */
  async function servesAgainWithin(boundMs: number, client = alice) {
    const deadline = Date.now() + boundMs;
    let last = 0;
    while (Date.now() < deadline) {
      const { answer } = await timed(readMessages(client), 3_000);
      if (answer !== 'hung') {
        last = answer.statusCode;
        if (last === 200) return 200;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return last;
  }

  function expectUnavailable(
    answer: Awaited<ReturnType<typeof readMessages>> | 'hung',
    code: string,
  ) {
    expect(answer).not.toBe('hung');
    if (answer === 'hung') return;
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.headers['retry-after']).toMatch(/^\d+$/);
    expect(answer.json()).toMatchObject({ status: 503, code });
  }

  it('serves after more failed transactions than the pool has connections', async () => {
    // Each transaction loses its connection half way, so its ROLLBACK fails too.
    for (let i = 0; i < POOL_SIZE * 2 + 2; i++) {
      await expect(
        app.orm.em.fork().transactional(async (tx) => {
          const [row] = await tx.execute<{ pid: number }[]>('select pg_backend_pid() as pid');
          await admin.query('select pg_terminate_backend($1)', [row!.pid]);
          await tx.execute('select 1');
        }),
      ).rejects.toThrow();
    }
    const { answer } = await timed(readMessages(alice), 3_000);
    expect(answer !== 'hung' && answer.statusCode).toBe(200);
    expect((await app.inject('/health/live')).statusCode).toBe(200);
  });

  it('serves again within seconds after its connections are cut under parallel writes', async () => {
    const writers = Promise.all(
      Array.from({ length: 20 }, (_, i) => timed(sendMessage(alice, `parallel ${i}`), 10_000)),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      ['faults'],
    );
    const answers = await writers;
    // Every writer got an answer, and none a 500: each stored its message or was told to retry.
    for (const { answer } of answers) {
      expect(answer).not.toBe('hung');
      if (answer !== 'hung') expect([200, 503]).toContain(answer.statusCode);
    }
    expect(await servesAgainWithin(5_000)).toBe(200);
  });

  it('fails liveness while no database connection has come back for too long, and passes again after', async () => {
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const holders = Array.from({ length: POOL_SIZE }, () =>
      app.orm.em.fork().transactional(async (tx) => {
        await tx.execute('select 1');
        await held;
      }),
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, STALLED_LIMIT_MS / 2));
      expect((await app.inject('/health/live')).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, STALLED_LIMIT_MS));
      const stalled = await app.inject('/health/live');
      expect(stalled.statusCode).toBe(503);
      expect(stalled.json()).toMatchObject({
        status: 'failing',
        checks: { databasePool: 'stalled' },
      });
    } finally {
      letGo();
      await Promise.all(holders);
    }
    expect((await app.inject('/health/live')).statusCode).toBe(200);
  });

  it('answers 503 DATABASE_UNAVAILABLE within about a second while PostgreSQL is paused, and recovers', async () => {
    expect(await servesAgainWithin(5_000)).toBe(200);
    postgres.pause();
    try {
      const { answer, ms } = await timed(readMessages(alice), 5_000);
      expectUnavailable(answer, 'DATABASE_UNAVAILABLE');
      expect(ms).toBeLessThan(2_000);
      const ready = await timed(app.inject('/health/ready'), 5_000);
      expect(ready.answer !== 'hung' && ready.answer.statusCode).toBe(503);
      expect(ready.ms).toBeLessThan(2_000);
    } finally {
      postgres.resume();
    }
    expect(await servesAgainWithin(5_000)).toBe(200);
  });

  it('answers 503 DATABASE_UNAVAILABLE while PostgreSQL is stopped, and recovers once it is back', async () => {
    await postgres.stop();
    try {
      const { answer, ms } = await timed(readMessages(alice), 5_000);
      expectUnavailable(answer, 'DATABASE_UNAVAILABLE');
      expect(ms).toBeLessThan(2_000);
    } finally {
      await postgres.start();
    }
    expect(await servesAgainWithin(10_000)).toBe(200);
  });

  it('answers 503 STATE_STORE_UNAVAILABLE within about a second while Redis is paused, and recovers', async () => {
    redis.pause();
    try {
      const { answer, ms } = await timed(readMessages(alice), 5_000);
      expectUnavailable(answer, 'STATE_STORE_UNAVAILABLE');
      expect(ms).toBeLessThan(2_000);
    } finally {
      redis.resume();
    }
    expect(await servesAgainWithin(5_000)).toBe(200);
  });

  it('answers 503 STATE_STORE_UNAVAILABLE at once while Redis is stopped, shows it in /metrics, and recovers once it is back', async () => {
    await redis.stop();
    try {
      const { answer, ms } = await timed(readMessages(alice), 5_000);
      expectUnavailable(answer, 'STATE_STORE_UNAVAILABLE');
      expect(ms).toBeLessThan(2_000);
      const ready = await timed(app.inject('/health/ready'), 5_000);
      expect(ready.answer !== 'hung' && ready.answer.statusCode).toBe(503);
      const metrics = (await app.inject('/metrics')).body;
      expect(metrics).toMatch(/^redis_connected 0$/m);
      expect(metrics).toMatch(/^redis_unavailable_failures_total [1-9]/m);
    } finally {
      await redis.start();
    }
    // The sessions went with the stopped Redis (it keeps nothing on disk): a new one.
    let again: UserClient | undefined;
    for (const deadline = Date.now() + 5_000; !again && Date.now() < deadline;) {
      again = await signInAs(app, ids.users.alice)
        .then((session) => userClient(app, session))
        .catch(async () => {
          await new Promise((resolve) => setTimeout(resolve, 100));
          return undefined;
        });
    }
    expect(again).toBeDefined();
    expect(await servesAgainWithin(5_000, again)).toBe(200);
    expect((await app.inject('/metrics')).body).toMatch(/^redis_connected 1$/m);
  });
});

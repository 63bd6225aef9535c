import { once } from 'node:events';
import { createServer } from 'node:net';
import {
  type ExitedProcess,
  freePort,
  holdHalfASecond,
  stopWhileConfirmationIsHeld,
  stopDuringRequest,
  TEST_STORE_TIMEOUTS,
  waitFor,
  workerDatabase,
} from '@foodshare/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { failedStart, startServerProcess } from './test-support/server-process.ts';

/** The lines a process wrote that are JSON log entries. */
function logEntries(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The failure was told in exactly one line on stderr, nothing else, and exit code 1. */
function expectOneLineFailure(exited: ExitedProcess, line: RegExp) {
  expect(exited.exitCode).toBe(1);
  expect(exited.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(line)]);
  expect(exited.stdout).not.toMatch(/\n\s+at /);
}

describe('server.ts', () => {
  it('listens, serves, and on SIGTERM finishes the request under way and exits with 0', async () => {
    const { child, address, output } = await startServerProcess();

    const ready = await fetch(`${address}/health/ready`);
    expect(ready.status).toBe(200);

    expect(await stopDuringRequest(child, address)).toEqual({ status: 401, exitCode: 0 });
    expect(output()).toContain('shutting down');
  });

  it('logs one JSON line per request, naming the service, without the query', async () => {
    const { child, address, output } = await startServerProcess();
    try {
      const response = await fetch(`${address}/api/users/current?hint=a-token`);
      expect(response.status).toBe(401);
      const requestId = response.headers.get('x-request-id');
      const completed = () =>
        logEntries(output()).filter(
          (entry) => entry.reqId === requestId && entry.msg === 'request completed',
        );
      // Written once the answer has gone, so possibly after the client has it.
      await waitFor('the request line', async () => completed().length > 0);
      expect(completed()).toEqual([
        expect.objectContaining({
          service: 'api',
          msg: 'request completed',
          method: 'GET',
          url: '/api/users/current',
          statusCode: 401,
          code: 'UNAUTHENTICATED',
          responseTime: expect.any(Number) as number,
        }),
      ]);
      expect(output()).not.toContain('a-token');
      expect(output()).not.toMatch(/incoming request|request refused/);
      expect(logEntries(output()).every((entry) => entry.service === 'api')).toBe(true);
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  });
});

// The end of a load run: the load generator drops its connections while handlers still wait
// for a row lock (stopWhileConfirmationIsHeld). The statement timeout outlasts the hold.
describe('server.ts stopped while a request whose client has gone is under way', () => {
  const confirmed = (output: string) =>
    logEntries(output).filter((entry) => entry.msg === 'quiz confirmed');

  it('lets the handler finish, Redis included, before it closes the stores, and exits with 0', async () => {
    const { child, address, databaseUrl, output } = await startServerProcess(TEST_STORE_TIMEOUTS);
    try {
      const stop = await stopWhileConfirmationIsHeld(child, address, databaseUrl, holdHalfASecond);
      expect(confirmed(output())).toEqual([
        expect.objectContaining({ role: 1, endedSessionCount: 1 }),
      ]);
      expect(output()).not.toMatch(/StateStoreUnavailable|STATE_STORE_UNAVAILABLE/);
      expect(stop.exitCode).toBe(0);
      expect(stop.exitedMs).toBeLessThan(4_000);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);

  // Whether its client left or still waits for the answer: one bound from the stop's start.
  it.each(['leaves', 'stays'] as const)(
    'waits no longer than its bound for a handler that does not finish (client %s)',
    async (client) => {
      const { child, address, databaseUrl, output } = await startServerProcess(TEST_STORE_TIMEOUTS);
      const warned = () => output().includes('closing with requests still under way');
      try {
        // Held until the stop says it goes on without the handler.
        const stop = await stopWhileConfirmationIsHeld(
          child,
          address,
          databaseUrl,
          () => waitFor('the warning', async () => warned(), 8_000),
          client,
        );
        // The stop serves for 5 s at most from its start (run-server.ts).
        expect(stop.releasedMs).toBeGreaterThan(4_500);
        expect(stop.releasedMs).toBeLessThan(7_000);
        expect(stop.exitCode).toBe(0);
        expect(stop.exitedMs - stop.releasedMs).toBeLessThan(2_000);
      } finally {
        child.kill('SIGKILL');
      }
    },
    40_000,
  );
});

// Each start spawns a process: seconds on a busy machine.
describe('server.ts failing to start', { timeout: 30_000 }, () => {
  it('says in one line that the port is taken', async () => {
    const holder = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const exited = await failedStart({ PORT: String(port) });
      expectOneLineFailure(
        exited,
        new RegExp(`^\\[api\\] port ${port} is taken: stop the other process or set PORT$`),
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('names every bad variable in one line, the cross-variable rules included', async () => {
    const exited = await failedStart({
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      NODE_ENV: 'production',
      BASE_URL: 'http://food.example.org',
    });
    expectOneLineFailure(
      exited,
      /^\[api\] bad configuration: (?=.*LOG_LEVEL: must be one of)(?=.*PORT: must be an integer)(?=.*BASE_URL: must be https in production).*: fix these environment variables$/,
    );
  });

  it('says in one line that the tracing configuration is bad, before tracing starts', async () => {
    const exited = await failedStart({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' });
    expectOneLineFailure(
      exited,
      /^\[api\] bad configuration: OTEL_EXPORTER_OTLP_ENDPOINT: .*: fix these environment variables$/,
    );
  });

  it('says in one line that no PostgreSQL answers', async () => {
    const port = await freePort();
    const exited = await failedStart({ DATABASE_URL: `postgres://app:pw@127.0.0.1:${port}/app` });
    expectOneLineFailure(
      exited,
      new RegExp(
        `^\\[api\\] no PostgreSQL answers at postgres://app:\\*\\*\\*@127\\.0\\.0\\.1:${port}/app \\(ECONNREFUSED\\): start it or set DATABASE_URL$`,
      ),
    );
  });

  it('says in one line that no Redis answers', async () => {
    const port = await freePort();
    const exited = await failedStart({ REDIS_URL: `redis://127.0.0.1:${port}` });
    expectOneLineFailure(
      exited,
      new RegExp(
        `^\\[api\\] no Redis answers at redis://127\\.0\\.0\\.1:${port}: start it or set REDIS_URL$`,
      ),
    );
  });

  it('says in one line that the database lacks a migration, and how to apply it', async () => {
    const database = await workerDatabase('api');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const newest = await client
      .query<{ name: string }>(
        'delete from mikro_orm_migrations where id = (select max(id) from mikro_orm_migrations) returning name',
      )
      .finally(() => client.end());
    const exited = await failedStart({ DATABASE_URL: database.url });
    expectOneLineFailure(
      exited,
      new RegExp(
        `^\\[api\\] the database at .* lacks 1 migration\\(s\\), from ${newest.rows[0]?.name}: run \`pnpm cli db migrate\``,
      ),
    );
  });
});

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import {
  type ExitedProcess,
  freePort,
  holdHalfASecond,
  runUntilExit,
  stopWhileConfirmationIsHeld,
  stopDuringRequest,
  TEST_STORE_TIMEOUTS,
  withDatabaseName,
  workerRedis,
} from '@foodshare/testing';
import pg from 'pg';
import { endpointExamples, readmeFirstRequest, runReadmeExamples } from './readme-examples.ts';
import {
  onDatabaseServer,
  serverUrl,
  startWithOwnDatabase,
  type StartedProcess,
} from './start-process.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A deployment's own pepper: the demo client secrets must be hashed with it, not the default.
const CLIENT_SECRET_PEPPER = 'a-pepper-of-the-start-test';

/** The first answer at `url`, asked again until something answers, or undefined when stopped. */
async function firstAnswer(url: string, stop: Promise<unknown>) {
  let stopped = false;
  void stop.finally(() => (stopped = true));
  while (!stopped) {
    const response = await fetch(url).catch(() => undefined);
    if (response) return { response, body: await response.text() };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}

describe('pnpm start', () => {
  let started: StartedProcess;
  let origin = '';
  let whileStarting: Awaited<ReturnType<typeof firstAnswer>>;

  beforeAll(async () => {
    // A port known in advance, so that it is asked while the start migrates and loads the demo
    // data, before it is ready.
    const port = await freePort();
    const starting = startWithOwnDatabase('start', { CLIENT_SECRET_PEPPER, PORT: String(port) });
    [started, whileStarting] = await Promise.all([
      starting,
      firstAnswer(`http://127.0.0.1:${port}/api/users/current`, starting),
    ]);
    origin = started.origin;
  }, 120_000);

  it('answers 503 problem+json with Retry-After while it starts', () => {
    expect(whileStarting).toBeDefined();
    expect(whileStarting?.response.status).toBe(503);
    expect(whileStarting?.response.headers.get('retry-after')).toBe('1');
    expect(whileStarting?.response.headers.get('content-type')).toContain(
      'application/problem+json',
    );
    expect(JSON.parse(whileStarting?.body ?? '')).toMatchObject({
      status: 503,
      code: 'STARTING',
    });
  });

  it('does not serve the metrics on its public origin', async () => {
    // Also as the router would read it after decoding: /%6Detrics is /metrics to Fastify.
    for (const url of [
      '/metrics',
      '/metrics?name[]=oauth_tokens_issued_total',
      '/%6Detrics',
      '/%6detrics?x=1',
      '/%6D%65trics',
    ]) {
      const response = await fetch(`${origin}${url}`);
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-type'), url).toContain('application/problem+json');
      expect(await response.text(), url).not.toMatch(/oauth_|http_request_duration/);
    }
  });

  afterAll(() => started?.stop());

  it('says once that the in-process store is single-instance only', () => {
    expect(started.output().match(/single-instance only/g)).toHaveLength(1);
    expect(started.output()).toContain('loaded the demo data');
  });

  it('logs a demo user in, knows them, and logs them out, on one origin', async () => {
    const login = await fetch(`${origin}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.org', password: 'demo-password' }),
    });
    expect(login.status).toBe(200);
    const cookies = login.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '');
    const csrf = cookies
      .find((cookie) => cookie.startsWith('CSRF_TOKEN='))
      ?.slice('CSRF_TOKEN='.length);
    const cookieHeader = cookies.join('; ');

    const current = await fetch(`${origin}/api/users/current`, {
      headers: { cookie: cookieHeader },
    });
    expect(current.status).toBe(200);
    expect(await current.json()).toMatchObject({ email: 'alice@example.org', role: 2 });

    const logout = await fetch(`${origin}/api/logout`, {
      method: 'POST',
      headers: { cookie: cookieHeader, 'x-csrf-token': csrf ?? '' },
    });
    expect(logout.status).toBe(200);
    const after = await fetch(`${origin}/api/users/current`, { headers: { cookie: cookieHeader } });
    expect(after.status).toBe(401);
  });

  it('hashes the demo client secret with the configured CLIENT_SECRET_PEPPER', async () => {
    const basic = Buffer.from('demo-confidential:demo-secret').toString('base64');
    const token = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'none' }),
    });
    // The client authenticated (a wrong secret would be 401 invalid_client); the token is bogus.
    expect(await token.json()).toMatchObject({ error: 'invalid_grant' });
    expect(token.status).toBe(400);
  });

  it('sends paths outside /api to the authorization server', async () => {
    const response = await fetch(`${origin}/oauth/no-such-endpoint`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });

  it('lets openid-client sign alice in through demo-public and demo-confidential, and a device (pnpm oidc:demo)', async () => {
    const demo = spawn(
      process.execPath,
      ['--conditions=development', path.join(import.meta.dirname, 'oidc-demo.ts'), origin],
      { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let printed = '';
    demo.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    demo.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const [exitCode] = (await once(demo, 'exit')) as [number | null];
    expect(printed).toContain('demo-public (none): signed in');
    expect(printed).toContain('demo-confidential (client_secret_basic): signed in');
    expect(printed.match(/pages shown: {3}login, consent\n/g)).toHaveLength(2);
    expect(printed).toMatch(
      /demo-public \(device\): go to \S+\/oauth\/device, enter [A-Z]{4}-[A-Z]{4}/,
    );
    expect(printed).toContain('demo-public (device): signed in');
    expect(printed).toContain('pages shown:   login, device, consent, other');
    expect(printed.match(/rotated, old one refused/g)).toHaveLength(2);
    expect(printed).toContain('"email":"alice@example.org"');
    expect(exitCode).toBe(0);
  }, 60_000);

  it("runs the README's first request and every endpoint example of docs/rest-api.md §2, each answered with 2xx", async () => {
    const [firstRequest = ''] = await readmeFirstRequest();
    expect(firstRequest).toMatch(/\/api\/login\n[\s\S]*\/api\/users\/current\n/);
    const [setup = '', examples = ''] = await endpointExamples();
    // One example (at least) for each of the 18 rows of docs/spec.md §4.1, numbered as there.
    const rows = [...examples.matchAll(/^# (\d+)\. /gm)].map((match) => Number(match[1]));
    expect(rows).toEqual(Array.from({ length: 18 }, (_, index) => index + 1));
    const statuses = await runReadmeExamples(origin);
    // Every call ran: one per curl line of the first request, one per login of the set-up, one
    // per curl line of the examples.
    const logins = /for user in ([\w ]+); do login/.exec(setup)?.[1]?.split(' ') ?? [];
    const curlLines = (block: string) => (block.match(/^curl /gm) ?? []).length;
    expect(statuses).toHaveLength(curlLines(firstRequest) + logins.length + curlLines(examples));
    expect(statuses.filter((line) => !/^2\d\d /.test(line))).toEqual([]);
  }, 60_000);

  it('finishes the request under way and stops cleanly on SIGTERM', async () => {
    expect(await stopDuringRequest(started.child, origin)).toEqual({ status: 401, exitCode: 0 });
  });
});

describe('pnpm start stopped while a request whose client has gone is under way', () => {
  it('lets the handler finish, Redis included, before it closes the stores', async () => {
    // On Redis, which fails a command once closed, as in the benchmark; the statement timeout
    // outlasts the hold.
    const redis = workerRedis('start');
    const started = await startWithOwnDatabase('start_held', {
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.keyPrefix,
      LOG_LEVEL: 'info',
      ...TEST_STORE_TIMEOUTS,
    });
    try {
      const { child, origin, databaseUrl } = started;
      const stop = await stopWhileConfirmationIsHeld(child, origin, databaseUrl, holdHalfASecond);
      const confirmed = started
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"quiz confirmed"'));
      expect(confirmed).toEqual([expect.stringContaining('"endedSessionCount":1')]);
      expect(started.output()).not.toMatch(/StateStoreUnavailable|STATE_STORE_UNAVAILABLE/);
      expect(stop.exitCode).toBe(0);
      expect(stop.exitedMs).toBeLessThan(4_000);
    } finally {
      await started.stop();
    }
  }, 120_000);
});

describe('pnpm start stopped with Ctrl-C', () => {
  it('stops cleanly, exits with 0, and pnpm reports no failure', async () => {
    const started = await startWithOwnDatabase('start_sigint', {}, { throughPnpm: true });
    try {
      const exited = once(started.child, 'exit') as Promise<[number | null, string | null]>;
      // The whole process group, as a terminal signals it: pnpm passes it on once more.
      process.kill(-(started.child.pid ?? 0), 'SIGINT');
      const [exitCode, signal] = await exited;
      expect({ exitCode, signal }).toEqual({ exitCode: 0, signal: null });
      expect(started.output()).toContain('[start] stopping (SIGINT)');
      expect(started.output()).not.toMatch(/ELIFECYCLE|Command failed|second SIGINT/);
    } finally {
      await started.stop();
    }
  }, 120_000);
});

// Each case spawns the start; it fails within seconds, but seconds on a busy machine.
describe('pnpm start failing to start', { timeout: 60_000 }, () => {
  const startScript = path.join(import.meta.dirname, 'start.ts');
  const failedStart = (env: Record<string, string>) =>
    runUntilExit(startScript, [], { REDIS_URL: 'redis://127.0.0.1:1', PORT: '0', ...env }, 45_000);

  /** The failure was told in exactly one line on stderr and exit code 1, without a stack. */
  function expectOneLineFailure(exited: ExitedProcess, line: RegExp) {
    expect(exited.exitCode).toBe(1);
    expect(exited.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(line)]);
    expect(exited.stdout).not.toMatch(/\n\s+at /);
  }

  it('says in one line that the port is taken', async () => {
    const holder = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const exited = await failedStart({ PORT: String(port), DATABASE_URL: serverUrl });
      expectOneLineFailure(
        exited,
        new RegExp(`^\\[start\\] port ${port} is taken: stop the other process or set PORT$`),
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('names every bad variable of both services in one line', async () => {
    const exited = await failedStart({
      DATABASE_URL: serverUrl,
      PORT: 'eighty',
      LOG_FORMAT: 'fancy',
      NODE_ENV: 'production',
    });
    expectOneLineFailure(
      exited,
      /^\[start\] bad configuration: (?=.*PORT: must be an integer)(?=.*LOG_FORMAT: must be one of pretty, json)(?=.*CLIENT_SECRET_PEPPER: required in production).*: fix these environment variables$/,
    );
  });

  it('says in one line that no PostgreSQL answers', async () => {
    const port = await freePort();
    const exited = await failedStart({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/x` });
    expectOneLineFailure(
      exited,
      new RegExp(
        `^\\[start\\] no PostgreSQL answers at postgres://postgres@127\\.0\\.0\\.1:${port}/x \\(ECONNREFUSED\\): start it or set DATABASE_URL$`,
      ),
    );
  });

  it("says in one line that the migrations failed on another application's database", async () => {
    const name = `fs_test_start_foreign_${process.pid}`;
    await onDatabaseServer(`CREATE DATABASE ${name}`);
    try {
      const url = withDatabaseName(serverUrl, name);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('CREATE TABLE users (login text)').finally(() => client.end());
      const exited = await failedStart({ DATABASE_URL: url });
      expectOneLineFailure(
        exited,
        /^\[start\] migrating the database at .* failed \(relation "users" already exists\): set DATABASE_URL to an empty database or one only this project migrates$/,
      );
    } finally {
      await onDatabaseServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  });
});

describe('pnpm oidc:demo', () => {
  it('says in one line how to start the server when none answers at PORT', async () => {
    const port = await freePort();
    const exited = await runUntilExit(path.join(import.meta.dirname, 'oidc-demo.ts'), [], {
      PORT: String(port),
    });
    expect(exited.exitCode).toBe(1);
    expect(exited.stderr).toBe(
      `no server answers at http://localhost:${port}: start it with \`pnpm start\` (PORT=… if you changed it)\n`,
    );
  }, 30_000);
});

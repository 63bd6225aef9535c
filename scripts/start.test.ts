import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { stopDuringRequest } from '@foodshare/testing';
import { readmeEndpointExamples, runReadmeExamples } from './readme-examples.ts';
import { startWithOwnDatabase, type StartedProcess } from './start-process.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A deployment's own pepper: the demo client secrets must be hashed with it, not the default.
const CLIENT_SECRET_PEPPER = 'a-pepper-of-the-start-test';

describe('pnpm start', () => {
  let started: StartedProcess;
  let origin = '';

  beforeAll(async () => {
    started = await startWithOwnDatabase('start', { CLIENT_SECRET_PEPPER });
    origin = started.origin;
  }, 120_000);

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

  it('lets openid-client sign alice in through demo-public and demo-confidential (pnpm oidc:demo)', async () => {
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
    expect(printed.match(/pages shown: {3}login, consent/g)).toHaveLength(2);
    expect(printed.match(/rotated, old one refused/g)).toHaveLength(2);
    expect(printed).toContain('"email":"alice@example.org"');
    expect(exitCode).toBe(0);
  }, 60_000);

  it("runs every curl example of the README's endpoint section, each answered with 2xx", async () => {
    const [setup = '', examples = ''] = await readmeEndpointExamples();
    // One example (at least) for each of the 18 rows of docs/spec.md §4.1, numbered as there.
    const rows = [...examples.matchAll(/^# (\d+)\. /gm)].map((match) => Number(match[1]));
    expect(rows).toEqual(Array.from({ length: 18 }, (_, index) => index + 1));
    const statuses = await runReadmeExamples(origin);
    // Every call ran: one per login of the set-up, one per curl line of the examples.
    const logins = /for user in ([\w ]+); do login/.exec(setup)?.[1]?.split(' ') ?? [];
    expect(statuses).toHaveLength(logins.length + (examples.match(/^curl /gm) ?? []).length);
    expect(statuses.filter((line) => !/^2\d\d /.test(line))).toEqual([]);
  }, 60_000);

  it('finishes the request under way and stops cleanly on SIGTERM', async () => {
    expect(await stopDuringRequest(started.child, origin)).toEqual({ status: 401, exitCode: 0 });
  });
});

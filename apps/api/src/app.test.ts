import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ConfigError, secureCookies } from '@foodshare/server-kit';
import { loadConfig } from './config.ts';
import { buildAppBeside } from './test-support/build-test-app.ts';
import { describe, expect, it, test } from './test-support/fixtures.ts';

const releaseFile = JSON.parse(
  readFileSync(new URL('../../../release.json', import.meta.url), 'utf8'),
) as { version: string };

describe('the api service', () => {
  test.beforeAll(({ app }) => {
    // A probe route that fails the way a bug would, with internals in its message.
    app.get('/api/test-failure', () => {
      throw new Error('connection to 10.1.2.3 refused: password authentication failed');
    });
  });

  it('is live, and ready when PostgreSQL and Redis answer', async ({ app }) => {
    const live = await app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', keyValueStore: 'ok' } });
  });

  it('says which release it is: at /health, and as a metric label', async ({ app }) => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const health = await app.inject({ method: 'GET', url: '/health' });
    expect(health.json()).toEqual({ service: 'api', version: releaseFile.version, commit: head });
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain(
      `foodshare_build_info{service="api",version="${releaseFile.version}",commit="${head}"} 1`,
    );
  });

  it('answers an unknown route with a problem+json 404', async ({ app }) => {
    const response = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(response.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', title: 'Not Found' });
  });

  it('answers a known path asked with a method it lacks with 405 and the methods it has', async ({
    app,
  }) => {
    const response = await app.inject({ method: 'PUT', url: '/api/regions/3' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(response.json()).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    // The route's params take any value in the router; the path still has the method it has.
    const chain = await app.inject({ method: 'POST', url: '/api/chains/abc?x=1' });
    expect(chain.statusCode).toBe(405);
    expect(chain.headers.allow).toBe('GET, HEAD, PATCH');
    // A path without any route stays a 404, whatever the method.
    const unknown = await app.inject({ method: 'PUT', url: '/api/regions/3/nothing' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
  });

  it('masks the message of an unexpected error and gives the request id to quote', async ({
    app,
  }) => {
    const response = await app.inject({ method: 'GET', url: '/api/test-failure' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('10.1.2.3');
    expect(response.body).not.toContain('password');
    expect(response.json()).toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
    expect(response.json().requestId).toBe(response.headers['x-request-id']);
  });

  it('keeps a well-formed request id from the proxy and replaces a malformed one', async ({
    app,
  }) => {
    const kept = await app.inject({
      method: 'GET',
      url: '/health/live',
      headers: { 'x-request-id': 'proxy-id-12345' },
    });
    expect(kept.headers['x-request-id']).toBe('proxy-id-12345');
    const replaced = await app.inject({
      method: 'GET',
      url: '/health/live',
      headers: { 'x-request-id': 'bad id\nwith newline' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a body that is not JSON with a 400 problem, not a 500', async ({ app }) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'MALFORMED_BODY' });
  });
});

describe('loadConfig', () => {
  it('applies defaults and converts types', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://localhost/db', PORT: '4000' });
    expect(config.PORT).toBe(4000);
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.BASE_URL).toBe('http://localhost:8080');
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ DATABASE_URL: 'mysql://localhost/db', PORT: 'eighty', LOG_LEVEL: 'loud' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('PORT');
    expect(message).toContain('LOG_LEVEL');
  });

  it('names a missing required variable', () => {
    expect(() => loadConfig({})).toThrow(/DATABASE_URL/);
  });

  it('refuses plain http and insecure cookies in production, except on loopback', () => {
    const production = { DATABASE_URL: 'postgres://db/app', NODE_ENV: 'production' };
    expect(() => loadConfig({ ...production, BASE_URL: 'http://food.example.org' })).toThrow(
      /BASE_URL: must be https in production/,
    );
    expect(() =>
      loadConfig({
        ...production,
        BASE_URL: 'https://food.example.org',
        SESSION_COOKIE_SECURE: 'false',
      }),
    ).toThrow(/SESSION_COOKIE_SECURE/);
    const config = loadConfig({ ...production, BASE_URL: 'https://food.example.org' });
    expect(secureCookies(config)).toBe(true);
    expect(secureCookies(loadConfig({ ...production, BASE_URL: 'http://localhost:8080' }))).toBe(
      true,
    );
    expect(secureCookies(loadConfig({ DATABASE_URL: 'postgres://db/app' }))).toBe(false);
  });
});

describe('readiness', () => {
  it('reports 503 and names the failing dependency when Redis is gone', async ({ testApp }) => {
    // Its own app, beside the file's: closing its Redis connection must not end the other's.
    const app = await buildAppBeside(testApp);
    try {
      await app.ready();
      await app.kv.close();
      const response = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 'failing',
        checks: { postgres: 'ok', keyValueStore: 'failing' },
      });
      const live = await app.inject({ method: 'GET', url: '/health/live' });
      expect(live.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

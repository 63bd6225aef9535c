import { readFileSync } from 'node:fs';
import { RedisKeyValueStore, SessionStore } from '@foodshare/server-kit';
import { describe, expect, it, test } from './test-support/fixtures.ts';

describe('the auth service', () => {
  let sessions: SessionStore;
  let store: RedisKeyValueStore;

  // The probe route is added before the app is ready, so this set-up takes the built app.
  test.beforeAll(async ({ testApp }) => {
    // Stands in for the REST login: a session written to the shared store by another
    // service instance, under the same prefix, as a deployment shares one Redis.
    store = await new RedisKeyValueStore(testApp.redis).connect();
    sessions = new SessionStore(store);
    testApp.app.get('/oauth/test-who-am-i', (request) => ({
      userId: request.session?.userId ?? null,
    }));
  });

  test.afterAll(() => store.close());

  it('recognises a session that another service started', async ({ app }) => {
    const session = await sessions.create(42, { rememberMe: false });
    const response = await app.inject({
      method: 'GET',
      url: '/oauth/test-who-am-i',
      cookies: { fs_session: session.id },
    });
    expect(response.json()).toEqual({ userId: 42 });
  });

  it('no longer recognises it once it was ended elsewhere', async ({ app }) => {
    const session = await sessions.create(43, { rememberMe: false });
    await sessions.destroy(session);
    const response = await app.inject({
      method: 'GET',
      url: '/oauth/test-who-am-i',
      cookies: { fs_session: session.id },
    });
    expect(response.json()).toEqual({ userId: null });
  });

  it('says which release it is at /health', async ({ app }) => {
    const health = await app.inject({ method: 'GET', url: '/health' });
    const { version } = JSON.parse(
      readFileSync(new URL('../../../release.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(health.json()).toMatchObject({ service: 'auth', version });
    expect(health.json<{ commit: string }>().commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('answers a protocol path asked with a method it lacks with 405 and the methods it has', async ({
    app,
  }) => {
    const token = await app.inject({ method: 'GET', url: '/oauth/token' });
    expect(token.statusCode).toBe(405);
    expect(token.headers.allow).toBe('OPTIONS, POST');
    expect(token.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(token.json()).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    // userinfo answers CORS preflights, so OPTIONS is among its methods.
    const userinfo = await app.inject({ method: 'DELETE', url: '/oauth/userinfo' });
    expect(userinfo.statusCode).toBe(405);
    expect(userinfo.headers.allow?.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
    const unknown = await app.inject({ method: 'GET', url: '/oauth/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
  });

  it('is ready when PostgreSQL and Redis answer', async ({ app }) => {
    const response = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(response.statusCode).toBe(200);
  });
});

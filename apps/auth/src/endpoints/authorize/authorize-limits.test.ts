import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthApp } from '../../app.ts';
import {
  authorizationParams,
  callbackParams,
  formBody,
} from '../../test-support/authorization-helpers.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';

/**
 * An anonymous authorization request is parked while the user logs in: no parameter may be
 * large enough to make that parking costly, and an oversized one is refused, not stored.
 */
describe('length limits of the authorization request parameters', () => {
  let app: AuthApp;

  beforeAll(async () => {
    ({ app } = await buildTestApp());
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (fields: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/oauth/authorize', ...formBody(fields) });

  it('accepts values at each limit and goes on to the login page', async () => {
    const response = await post(
      authorizationParams({ state: 's'.repeat(1024), nonce: 'n'.repeat(512) }),
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(/^\/login\?request=/);
  });

  it.each([
    ['state', 's'.repeat(200 * 1024), 1024],
    ['state', 's'.repeat(1025), 1024],
    ['nonce', 'n'.repeat(513), 512],
    ['code_challenge', 'c'.repeat(1001), 1000],
    ['scope', `openid ${'x'.repeat(1000)}`, 1000],
    ['login_hint', `${'a'.repeat(400)}@example.org`, 320],
    ['ui_locales', 'de '.repeat(100), 200],
    ['prompt', 'login '.repeat(30), 100],
    ['an_unknown_parameter', 'u'.repeat(2001), 2000],
  ])('refuses a too long %s with invalid_request, echoing nothing', async (name, value, max) => {
    const response = await post(authorizationParams({ [name]: value }));
    expect(response.statusCode).toBe(303);
    const callback = callbackParams(response);
    expect(callback.get('error')).toBe('invalid_request');
    expect(callback.get('error_description')).toBe(`${name} must not exceed ${max} characters`);
    if (name === 'state') expect(callback.get('state')).toBeNull();
    expect(String(response.headers.location).length).toBeLessThan(2000);
  });

  it.each([
    ['client_id', 'c'.repeat(101)],
    ['redirect_uri', `https://example.org/${'r'.repeat(2000)}`],
  ])('shows the error page for a too long %s, never redirecting', async (name, value) => {
    const response = await post(authorizationParams({ [name]: value }));
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.body).toContain('redirect_uri');
  });
});

describe('the per-address rate of /oauth/authorize and /login', () => {
  let app: AuthApp;

  beforeAll(async () => {
    ({ app } = await buildTestApp({ INTERACTION_REQUESTS_PER_IP_PER_MINUTE: '3' }));
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, remoteAddress: string) =>
    app.inject({ method: 'GET', url, remoteAddress });

  it('refuses an address past its budget over both pages with 429 and Retry-After', async () => {
    const authorize = `/oauth/authorize?${new URLSearchParams(authorizationParams()).toString()}`;
    expect((await get(authorize, '10.90.0.1')).statusCode).toBe(302);
    expect((await get('/login', '10.90.0.1')).statusCode).toBe(200);
    expect((await get(authorize, '10.90.0.1')).statusCode).toBe(302);
    for (const url of [authorize, '/login']) {
      const refused = await get(url, '10.90.0.1');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
    }
    const posted = await app.inject({
      method: 'POST',
      url: '/oauth/authorize',
      remoteAddress: '10.90.0.1',
      ...formBody(authorizationParams({ state: 's'.repeat(1000) })),
    });
    expect(posted.statusCode).toBe(429);
    // Another address has its own budget.
    expect((await get(authorize, '10.90.0.2')).statusCode).toBe(302);
  });
});

import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiApp } from '../app.ts';
import { buildTestApp } from '../test-support/build-test-app.ts';

const ids = inject('demoIds');

type Answer = Awaited<ReturnType<ApiApp['inject']>>;

function expectNoSniffingOrFraming(response: Answer) {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'none'|sandbox/);
}

describe('headers on every /api answer: no caching of personal data, no sniffing, no framing', () => {
  let app: ApiApp;
  let alice: SignedInClient;

  beforeAll(async () => {
    ({ app } = await buildTestApp());
    alice = await signInAs(app, ids.users.alice);
  });
  afterAll(() => app.close());

  it.each([
    ['a JSON read', 'GET', '/api/users/current', true, 200],
    ['an anonymous read (401)', 'GET', '/api/users/current', false, 401],
    ['a path that matches no route (404)', 'GET', '/api/no/such/route', true, 404],
    ['a path value that names nothing (404)', 'GET', '/api/regions/abc', true, 404],
    ['a malformed body (400)', 'POST', '/api/login', false, 400],
    ['a write without the CSRF token (403)', 'POST', '/api/logout', true, 403],
    ['the health check', 'GET', '/health/live', false, 200],
  ] as const)('%s', async (_name, method, url, signedIn, status) => {
    const response = await app.inject({
      method,
      url,
      ...(signedIn ? { cookies: alice.cookies } : {}),
      ...(method === 'POST' ? { payload: { email: 1 } } : {}),
    });
    expect(response.statusCode).toBe(status);
    expect(response.headers['cache-control']).toBe('no-store');
    expectNoSniffingOrFraming(response);
  });

  it('keeps the private, immutable caching of a stored photo, still unsniffed and unframed', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/uploads/${ids.avatarUploadId}`,
      cookies: alice.cookies,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expectNoSniffingOrFraming(response);
  });

  it('never lets a passport PDF be cached', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/user/current/passport',
      cookies: alice.cookies,
      headers: alice.headers,
    });
    expect(response.headers['cache-control']).toBe('no-store');
    expectNoSniffingOrFraming(response);
  });
});

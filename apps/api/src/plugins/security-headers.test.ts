import type { ApiApp } from '../app.ts';
import { describe, expect, ids, it, test, type UserClient } from '../test-support/fixtures.ts';

type Answer = Awaited<ReturnType<ApiApp['inject']>>;

function expectNoSniffingOrFraming(response: Answer) {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'none'|sandbox/);
}

describe('headers on every /api answer: no caching of personal data, no sniffing, no framing', () => {
  let alice: UserClient;

  test.beforeAll(async ({ as }) => {
    alice = await as('alice');
  });

  it.for([
    ['a JSON read', 'GET', '/api/users/current', true, 200],
    ['an anonymous read (401)', 'GET', '/api/users/current', false, 401],
    ['a path that matches no route (404)', 'GET', '/api/no/such/route', true, 404],
    ['a path value that names nothing (404)', 'GET', '/api/regions/abc', true, 404],
    ['a malformed body (400)', 'POST', '/api/login', false, 400],
    ['a write without the CSRF token (403)', 'POST', '/api/logout', true, 403],
    ['the health check', 'GET', '/health/live', false, 200],
  ] as const)('%s', async ([_name, method, url, signedIn, status], { anonymous }) => {
    // Signed in, but never with the CSRF header: the write must be refused.
    const client = signedIn ? alice.withoutCsrf() : anonymous;
    const response = await client.request(
      method,
      url,
      method === 'POST' ? { payload: { email: 1 } } : {},
    );
    expect(response.statusCode).toBe(status);
    expect(response.headers['cache-control']).toBe('no-store');
    expectNoSniffingOrFraming(response);
  });

  it('keeps the private, immutable caching of a stored photo, still unsniffed and unframed', async () => {
    const response = await alice.get(`/api/uploads/${ids.avatarUploadId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expectNoSniffingOrFraming(response);
  });

  it('never lets a passport PDF be cached', async () => {
    const response = await alice.post('/api/user/current/passport');
    expect(response.headers['cache-control']).toBe('no-store');
    expectNoSniffingOrFraming(response);
  });
});

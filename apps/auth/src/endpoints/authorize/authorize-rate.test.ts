import type { AuthApp } from '../../app.ts';
import { authorizationParams, formBody } from '../../test-support/authorization-helpers.ts';
import { describe, expect, it, test } from '../../test-support/fixtures.ts';

test.override('appEnv', { scope: 'file' }, { INTERACTION_REQUESTS_PER_IP_PER_MINUTE: '3' });

describe('the per-address rate of /oauth/authorize and /login', () => {
  const get = (app: AuthApp, url: string, remoteAddress: string) =>
    app.inject({ method: 'GET', url, remoteAddress });

  it('refuses an address past its budget over both pages with 429 and Retry-After', async ({
    app,
  }) => {
    const authorize = `/oauth/authorize?${new URLSearchParams(authorizationParams()).toString()}`;
    expect((await get(app, authorize, '10.90.0.1')).statusCode).toBe(302);
    expect((await get(app, '/login', '10.90.0.1')).statusCode).toBe(200);
    expect((await get(app, authorize, '10.90.0.1')).statusCode).toBe(302);
    for (const url of [authorize, '/login']) {
      const refused = await get(app, url, '10.90.0.1');
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
    expect((await get(app, authorize, '10.90.0.2')).statusCode).toBe(302);
  });
});

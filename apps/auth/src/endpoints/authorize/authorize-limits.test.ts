import type { AuthApp } from '../../app.ts';
import {
  authorizationParams,
  callbackParams,
  formBody,
} from '../../test-support/authorization-helpers.ts';
import { describe, expect, it } from '../../test-support/fixtures.ts';

/**
 * An anonymous authorization request is parked while the user logs in: no parameter may be
 * large enough to make that parking costly, and an oversized one is refused, not stored.
 */
describe('length limits of the authorization request parameters', () => {
  const post = (app: AuthApp, fields: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/oauth/authorize', ...formBody(fields) });

  it('accepts values at each limit and goes on to the login page', async ({ app }) => {
    const response = await post(
      app,
      authorizationParams({ state: 's'.repeat(1024), nonce: 'n'.repeat(512) }),
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(/^\/login\?request=/);
  });

  it.for([
    ['state', 's'.repeat(200 * 1024), 1024],
    ['state', 's'.repeat(1025), 1024],
    ['nonce', 'n'.repeat(513), 512],
    ['code_challenge', 'c'.repeat(1001), 1000],
    ['scope', `openid ${'x'.repeat(1000)}`, 1000],
    ['login_hint', `${'a'.repeat(400)}@example.org`, 320],
    ['ui_locales', 'de '.repeat(100), 200],
    ['prompt', 'login '.repeat(30), 100],
    ['an_unknown_parameter', 'u'.repeat(2001), 2000],
  ] as const)(
    'refuses a too long %s with invalid_request, echoing nothing',
    async ([name, value, max], { app }) => {
      const response = await post(app, authorizationParams({ [name]: value }));
      expect(response.statusCode).toBe(303);
      const callback = callbackParams(response);
      expect(callback.get('error')).toBe('invalid_request');
      expect(callback.get('error_description')).toBe(`${name} must not exceed ${max} characters`);
      if (name === 'state') expect(callback.get('state')).toBeNull();
      expect(String(response.headers.location).length).toBeLessThan(2000);
    },
  );

  it.for([
    ['client_id', 'c'.repeat(101)],
    ['redirect_uri', `https://example.org/${'r'.repeat(2000)}`],
  ] as const)(
    'shows the error page for a too long %s, never redirecting',
    async ([name, value], { app }) => {
      const response = await post(app, authorizationParams({ [name]: value }));
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toContain('redirect_uri');
    },
  );
});

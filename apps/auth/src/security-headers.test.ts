import { type ApiApp, buildApp as buildApiApp } from '@foodshare/api/app';
import { loadConfig as loadApiConfig } from '@foodshare/api/config';
import type { InjectOptions } from 'fastify';
import { type AuthApp, buildApp as buildAuthApp } from './app.ts';
import { loadConfig as loadAuthConfig } from './config.ts';
import { authorizeUrl } from './test-support/authorization-helpers.ts';
import { describe, expect, test as base } from './test-support/fixtures.ts';

// Every answer of both services carries the security headers, whatever answers it: a JSON
// route, a page, a redirect, an OAuth error, the JWKS, the metrics, a 404. And once BASE_URL is
// https, Strict-Transport-Security too.

type Service = 'api' | 'auth';

const routes: [string, Service, InjectOptions][] = [
  ['the JWKS', 'auth', { url: '/.well-known/jwks.json' }],
  ['discovery', 'auth', { url: '/.well-known/openid-configuration' }],
  ['the auth metrics', 'auth', { url: '/metrics' }],
  ['an authorization request (302)', 'auth', { url: authorizeUrl() }],
  ['the login page', 'auth', { url: '/login' }],
  ['the device verification page, to login (302)', 'auth', { url: '/oauth/device' }],
  ['a token request without a body (400)', 'auth', { method: 'POST', url: '/oauth/token' }],
  ['userinfo without a token (401)', 'auth', { url: '/oauth/userinfo' }],
  ['a path of no auth route (404)', 'auth', { url: '/oauth/no-such-endpoint' }],
  ['the auth health check', 'auth', { url: '/health/live' }],
  ['the api metrics', 'api', { url: '/metrics' }],
  ['an anonymous read (401)', 'api', { url: '/api/users/current' }],
  ['the OpenAPI document', 'api', { url: '/api/openapi.json' }],
  ['a path of no api route (404)', 'api', { url: '/api/no/such/route' }],
  ['the api health check', 'api', { url: '/health/ready' }],
];

type Both = { api: ApiApp; auth: AuthApp };

/** Both services on the file's database and Redis prefix, at `baseUrl`, closed after the file. */
async function buildBoth(
  env: Record<string, string>,
  baseUrl: string,
  onCleanup: (close: () => Promise<void>) => void,
): Promise<Both> {
  const withBase = { ...env, BASE_URL: baseUrl };
  const both = {
    api: await buildApiApp(loadApiConfig(withBase)),
    auth: await buildAuthApp(loadAuthConfig(withBase)),
  };
  onCleanup(async () => {
    await Promise.all([both.api.close(), both.auth.close()]);
  });
  await Promise.all([both.api.ready(), both.auth.ready()]);
  return both;
}

const test = base
  .extend('plain', { scope: 'file' }, ({ testApp }, { onCleanup }) =>
    buildBoth(testApp.env, 'http://localhost:8080', onCleanup),
  )
  .extend('https', { scope: 'file' }, ({ testApp }, { onCleanup }) =>
    buildBoth(testApp.env, 'https://food.example.org', onCleanup),
  );
const it = test;

describe('the security headers on every answer of both services', () => {
  // Four apps to build: under the hook's timeout rather than the first test's.
  test.beforeAll(async ({ plain, https }) => {
    await Promise.all([plain.auth.ready(), https.auth.ready()]);
  });

  it.for(routes)(
    '%s: no sniffing, no framing; no HSTS over http',
    async ([, service, request], { plain }) => {
      const response = await plain[service].inject(request);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(response.headers['strict-transport-security']).toBeUndefined();
    },
  );

  it.for(routes)(
    '%s: Strict-Transport-Security once BASE_URL is https',
    async ([, service, request], { https }) => {
      const response = await https[service].inject(request);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
    },
  );
});

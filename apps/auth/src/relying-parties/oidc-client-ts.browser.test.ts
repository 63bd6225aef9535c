import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DEMO_PASSWORD, DemoUserEmail } from '@foodshare/domain';
import type { Page } from 'playwright-core';
import { describe, expect, ids, test as base } from '../test-support/fixtures.ts';
import { listenLoopback } from './relying-party-harness.ts';

/**
 * A single-page app on another origin with oidc-client-ts 3 (its browser bundle, as a page
 * includes it) in headless Chromium: signinRedirect with PKCE as a public client, the user's
 * login and consent on our pages, the callback, userinfo called across origins (CORS), a silent
 * refresh with the refresh token, and signoutRedirect through our end_session endpoint. Every
 * call to us is the browser's own, so our CORS answers are what is tested as much as the flow.
 */

const CLIENT_ID = 'oidc-client-ts-spa';
const STEP_TIMEOUT_MS = 20_000;
const TEST_TIMEOUT_MS = 90_000;
const APP_DIR = path.join(import.meta.dirname, 'browser-app');
const BUNDLE = path.join(
  path.dirname(createRequire(import.meta.url).resolve('oidc-client-ts/package.json')),
  'dist/browser/oidc-client-ts.min.js',
);

interface AppTokens {
  accessToken: string;
  refreshToken: string;
  idToken: string;
  profile: Record<string, unknown>;
}

interface UserinfoAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** The app's origin: its page (under every path it navigates to), script, config and bundle. */
async function startBrowserApp(issuer: string) {
  const files = {
    page: await readFile(path.join(APP_DIR, 'index.html')),
    script: await readFile(path.join(APP_DIR, 'app.js')),
    bundle: await readFile(BUNDLE),
    config: `window.RP_CONFIG = ${JSON.stringify({ issuer, clientId: CLIENT_ID })};\n`,
  };
  return listenLoopback((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://app');
    const js = 'text/javascript; charset=utf-8';
    if (pathname === '/oidc-client-ts.js') response.writeHead(200, { 'content-type': js });
    else if (pathname === '/app.js') response.writeHead(200, { 'content-type': js });
    else if (pathname === '/config.js') response.writeHead(200, { 'content-type': js });
    else if (['/', '/callback.html', '/signed-out.html'].includes(pathname)) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    } else {
      response.writeHead(404).end();
      return;
    }
    response.end(
      pathname === '/oidc-client-ts.js'
        ? files.bundle
        : pathname === '/app.js'
          ? files.script
          : pathname === '/config.js'
            ? files.config
            : files.page,
    );
  });
}

const test = base
  /** The single-page app on an origin of its own, registered as a client of the server. */
  .extend('spa', { scope: 'file' }, async ({ origin, registerClient }, { onCleanup }) => {
    const spa = await startBrowserApp(origin);
    onCleanup(() => spa.close());
    await registerClient({
      clientId: CLIENT_ID,
      redirectUris: [`${spa.origin}/callback.html`],
      postLogoutRedirectUris: [`${spa.origin}/signed-out.html`],
    });
    return spa;
  });
const it = test;

test.override('listen', { scope: 'file' }, true);

describe('oidc-client-ts in Chromium as a single-page app on another origin', () => {
  /** What the app shows once it is `kind`; the app's error, if it shows one instead. */
  async function shown(page: Page, kind: string): Promise<Record<string, unknown>> {
    await page.waitForSelector(`body[data-ready="${kind}"], body[data-ready="error"]`);
    const state = JSON.parse((await page.textContent('#state')) ?? '{}') as {
      kind: string;
    };
    if (state.kind !== kind) throw new Error(`the app shows ${JSON.stringify(state)}`);
    return state;
  }

  it(
    'signs in with PKCE, reads userinfo across origins, refreshes silently and signs out',
    async ({ origin: issuer, spa: app, browser }) => {
      const context = await browser.newContext({ locale: 'en-US' });
      context.setDefaultTimeout(STEP_TIMEOUT_MS);
      const page = await context.newPage();
      const seen: string[] = [];
      page.on('console', (message) => seen.push(`console: ${message.text()}`));
      page.on('requestfailed', (request) =>
        seen.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`),
      );
      const authorizeRequests: URL[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.origin === issuer && url.pathname === '/oauth/authorize') {
          authorizeRequests.push(url);
        }
      });
      const subject = String(ids.users.alice);

      try {
        await page.goto(`${app.origin}/`);
        await shown(page, 'home');

        // signinRedirect takes the browser to our login page; the user signs in and allows.
        await Promise.all([
          page.waitForURL((url) => url.origin === issuer && url.pathname === '/login'),
          page.evaluate('void window.rp.signIn()'),
        ]);
        const authorize = authorizeRequests[0];
        expect(authorize?.searchParams.get('client_id')).toBe(CLIENT_ID);
        expect(authorize?.searchParams.get('code_challenge_method')).toBe('S256');
        await page.getByLabel('Email address').fill(DemoUserEmail.alice);
        await page.getByLabel('Password').fill(DEMO_PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
        await Promise.all([
          page.waitForURL((url) => url.href.startsWith(`${app.origin}/callback.html`)),
          page.getByRole('button', { name: 'Allow' }).click(),
        ]);

        // The library redeemed the code from the app's origin and loaded userinfo.
        const signedIn = (await shown(page, 'signed-in')) as unknown as AppTokens;
        expect(signedIn.profile).toMatchObject({
          iss: issuer,
          aud: CLIENT_ID,
          sub: subject,
          email: DemoUserEmail.alice,
        });
        expect(signedIn.refreshToken).toBeTruthy();

        const userinfo = await page.evaluate<UserinfoAnswer>('window.rp.userinfo()');
        expect(userinfo).toMatchObject({ status: 200, body: { sub: subject } });

        // The silent refresh: new tokens from the refresh token, accepted by userinfo.
        const refreshed = await page.evaluate<AppTokens>('window.rp.refresh()');
        expect(refreshed.accessToken).not.toBe(signedIn.accessToken);
        expect(refreshed.refreshToken).not.toBe(signedIn.refreshToken);
        expect(refreshed.profile).toMatchObject({ sub: subject });
        const afterRefresh = await page.evaluate<UserinfoAnswer>('window.rp.userinfo()');
        expect(afterRefresh).toMatchObject({ status: 200, body: { sub: subject } });

        // signoutRedirect: through our end_session endpoint and back to the app.
        await Promise.all([
          page.waitForURL(`${app.origin}/signed-out.html`),
          page.evaluate('void window.rp.signOut()'),
        ]);
        await shown(page, 'signed-out');

        // Our session ended: signing in again asks for the password.
        await Promise.all([
          page.waitForURL((url) => url.origin === issuer && url.pathname === '/login'),
          page.evaluate('void window.rp.signIn()'),
        ]);
      } catch (error) {
        throw new Error(`${String(error)}\nThe browser saw:\n  ${seen.join('\n  ')}`, {
          cause: error,
        });
      } finally {
        await context.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});

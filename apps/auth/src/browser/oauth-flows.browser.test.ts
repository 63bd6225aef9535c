import { servicesOf } from '../test-support/build-test-app.ts';
import { hash, randomBytes } from 'node:crypto';
import {
  createOAuthClient,
  DEMO_PASSWORD,
  DemoRegionId,
  DemoUserEmail,
  verifyClientSecret,
} from '@foodshare/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it, test } from '../test-support/fixtures.ts';
import type { AuthApp } from '../app.ts';
import type { CallbackServer } from '../test-support/callback-server.ts';
import { giveLegacyClientName } from '../test-support/legacy-client-name.ts';
import { findClientRow } from '../test-support/oauth-admin-helpers.ts';

const NAVIGATION_TIMEOUT_MS = 30_000;
const TEST_TIMEOUT_MS = 120_000;

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: hash('sha256', verifier, 'base64url') };
}

async function logIn(page: Page, email: string) {
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await Promise.all([
    page.waitForURL((url) => url.pathname !== '/login'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
}

test.override('listen', { scope: 'file' }, true);

describe('in a real browser (headless Chromium)', () => {
  let app: AuthApp;
  let origin: string;
  let browser: Browser;
  let callback: CallbackServer;
  const contexts: BrowserContext[] = [];

  test.beforeAll(async ({ app: listening, origin: served, browser: chromium, callback: cb }) => {
    // The helpers below are the file's and use its one app, browser and callback.
    app = listening;
    origin = served;
    browser = chromium;
    callback = cb;
  });

  test.afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  // What the browser saw, per page, so a failure says why (a CSP refusal is only a console line).
  const journals = new WeakMap<Page, string[]>();

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-US' });
    context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
    context.setDefaultTimeout(NAVIGATION_TIMEOUT_MS);
    contexts.push(context);
    const page = await context.newPage();
    const journal: string[] = [];
    journals.set(page, journal);
    page.on('console', (message) => journal.push(`console: ${message.text()}`));
    page.on('response', (response) =>
      journal.push(
        `${response.request().method()} ${response.url()} -> ${response.status()} ${response.headers().location ?? ''}`,
      ),
    );
    page.on('requestfailed', (request) =>
      journal.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`),
    );
    return page;
  }

  /** Runs a browser step; a failure carries what the browser saw on the way. */
  async function step<T>(page: Page, what: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      // A round trip to the page delivers the events still in flight (the CSP console line).
      await page.evaluate(() => 0).catch(() => 0);
      const seen = (journals.get(page) ?? []).join('\n  ');
      throw new Error(`${what} failed: ${String(error)}\nThe browser saw:\n  ${seen}`, {
        cause: error,
      });
    }
  }

  it(
    'logs in, consents with "remember" and lands on the client callback with code and state',
    async () => {
      const clientId = `browser-public-${randomBytes(4).toString('hex')}`;
      await createOAuthClient(
        app.orm.em.fork(),
        {
          clientId,
          name: 'Browser Test App',
          confidential: false,
          redirectUris: [callback.url],
          scopes: ['openid', 'profile'],
          grantTypes: ['authorization_code', 'refresh_token'],
        },
        { pepper: servicesOf(app).secrets.clientSecretPepper },
      );
      const authorizeUrl = (state: string) =>
        `${origin}/oauth/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: clientId,
          redirect_uri: callback.url,
          scope: 'openid profile',
          state,
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        }).toString()}`;

      const page = await newPage();
      await step(page, 'the login page', async () => {
        await page.goto(authorizeUrl('first-state'));
        await page.waitForURL((url) => url.pathname === '/login');
        await page.getByText('Browser Test App').first().waitFor();
        await logIn(page, DemoUserEmail.alice);
      });

      await step(page, 'the consent page', async () => {
        await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
        await page.getByLabel('Remember this choice').check();
        await Promise.all([
          page.waitForURL((url) => url.href.startsWith(callback.url)),
          page.getByRole('button', { name: 'Allow' }).click(),
        ]);
      });
      const landed = new URL(page.url());
      expect(landed.searchParams.get('code')).toMatch(/.{20,}/);
      expect(landed.searchParams.get('state')).toBe('first-state');
      expect(landed.searchParams.get('iss')).toBe(origin);
      expect(await page.textContent('body')).toContain('callback reached');

      // The remembered consent and the session skip both pages the second time.
      await step(page, 'the second authorization', async () => {
        await page.goto(authorizeUrl('second-state'));
        await page.waitForURL((url) => url.href.startsWith(callback.url));
      });
      const again = new URL(page.url());
      expect(again.searchParams.get('state')).toBe('second-state');
      expect(again.searchParams.get('code')).toMatch(/.{20,}/);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'shows a user outside the required regions why, and takes access_denied back to the client',
    async () => {
      const clientId = `browser-regional-${randomBytes(4).toString('hex')}`;
      await createOAuthClient(
        app.orm.em.fork(),
        {
          clientId,
          name: 'Musterstadt Only App',
          confidential: false,
          redirectUris: [callback.url],
          scopes: ['openid', 'profile'],
          grantTypes: ['authorization_code'],
          requiredRegionIds: [DemoRegionId.Musterstadt],
        },
        { pepper: servicesOf(app).secrets.clientSecretPepper },
      );
      await giveLegacyClientName(app.orm.em.fork(), clientId, 'Musterstadt <Only> App');
      const page = await newPage();
      await step(page, 'the login page', async () => {
        await page.goto(
          `${origin}/oauth/authorize?${new URLSearchParams({
            response_type: 'code',
            client_id: clientId,
            redirect_uri: callback.url,
            scope: 'openid profile',
            state: 'regional-state',
            code_challenge: pkcePair().challenge,
            code_challenge_method: 'S256',
          }).toString()}`,
        );
        await page.waitForURL((url) => url.pathname === '/login');
        // Bob is a member of Beispieldorf only. The login form's answer is the refusal page.
        await page.getByLabel('Email address').fill(DemoUserEmail.bob);
        await page.getByLabel('Password').fill(DEMO_PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
      });

      await step(page, 'the refusal page', async () => {
        await page.getByRole('heading', { name: 'User not in required regions' }).waitFor();
        expect(await page.locator('strong').first().textContent()).toBe('Musterstadt <Only> App');
        await Promise.all([
          page.waitForURL((url) => url.href.startsWith(callback.url)),
          page.getByRole('link', { name: 'Back to Musterstadt <Only> App' }).click(),
        ]);
      });
      const landed = new URL(page.url());
      expect(Object.fromEntries(landed.searchParams)).toEqual({
        error: 'access_denied',
        error_description: 'User not in required regions',
        state: 'regional-state',
        iss: origin,
      });
      expect(await page.textContent('body')).toContain('callback reached');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'lets the orga create a confidential client and shows its secret exactly once',
    async () => {
      const clientId = `browser-admin-${randomBytes(4).toString('hex')}`;
      const page = await newPage();

      await step(page, 'the login page', async () => {
        await page.goto(`${origin}/admin/oauthclients`);
        await page.waitForURL((url) => url.pathname === '/login');
        await logIn(page, DemoUserEmail.orga);
      });
      expect(new URL(page.url()).pathname).toBe('/admin/oauthclients');
      await page.getByRole('heading', { name: 'OAuth clients' }).waitFor();

      await Promise.all([
        page.waitForURL((url) => url.pathname === '/admin/oauthclients/new'),
        page.getByRole('link', { name: 'New client' }).first().click(),
      ]);
      await page.getByLabel('Client ID').fill(clientId);
      await page.getByLabel('Name', { exact: true }).fill('Browser "Server" & App');
      await page.getByLabel('Confidential client').check();
      await page
        .getByLabel('Redirect URIs', { exact: true })
        .fill('https://server.example.org/callback');
      await page.getByLabel('profile – name, picture, language').check();
      await page.getByLabel('refresh_token – issue refresh tokens').check();
      await page.getByLabel('Musterstadt', { exact: true }).check();
      await step(page, 'creating the client', () =>
        Promise.all([
          page.waitForURL((url) => url.pathname.endsWith('/secret')),
          page.getByRole('button', { name: 'Create client' }).click(),
        ]),
      );

      expect(new URL(page.url()).pathname).toMatch(/^\/admin\/oauthclients\/\d+\/secret$/);
      await page.getByText('The secret is shown this once').waitFor();
      const secret = (await page.locator('#client-secret').textContent()) ?? '';
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      const stored = await findClientRow(app, clientId);
      expect(stored).toMatchObject({
        name: 'Browser "Server" & App',
        confidential: true,
        scopes: ['openid', 'profile'],
        grantTypes: ['authorization_code', 'refresh_token'],
      });
      expect(
        verifyClientSecret(
          secret,
          stored?.secretHash ?? '',
          servicesOf(app).secrets.clientSecretPepper,
        ),
      ).toBe(true);

      await page.reload();
      await page.getByText('cannot be shown again').waitFor();
      expect(await page.content()).not.toContain(secret);

      await page.goto(`${origin}/admin/oauthclients`);
      const row = page.getByRole('row', { name: new RegExp(clientId) });
      await row.waitFor();
      expect(await row.textContent()).toContain('Browser "Server" & App');
      expect(await row.textContent()).toContain('Musterstadt');
      expect(await page.content()).not.toContain(secret);
    },
    TEST_TIMEOUT_MS,
  );
});

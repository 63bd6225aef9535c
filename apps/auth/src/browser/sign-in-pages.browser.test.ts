import { servicesOf } from '../test-support/build-test-app.ts';
import { hash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createOAuthClient, DEMO_PASSWORD, DemoUserEmail } from '@foodshare/domain';
import { PAGE_WIDTHS, RECORD_CSP_VIOLATIONS, wcagViolations } from '@foodshare/testing/browser';
import type { Browser, Page } from 'playwright-core';
import type { AuthApp } from '../app.ts';
import type { CallbackServer } from '../test-support/callback-server.ts';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';

// The sign-in pages as a volunteer sees them, in both languages at a desktop's and a phone's
// width and in the dark variant: each page is checked by axe-core (WCAG 2 A and AA), for
// horizontal scrolling and for refusals of the CSP, and kept as a screenshot.

const STEP_TIMEOUT_MS = 30_000;
// Five journeys of eight pages, each with axe's checks, on a machine of two cores under load.
const TEST_TIMEOUT_MS = 120_000;

/** Kept as test artefacts (gitignored); docs/images takes two of them for the README. */
const SCREENSHOTS = fileURLToPath(new URL('../../../../.data/screenshots/', import.meta.url));

const PASSWORD_RESET_URL = 'https://foodsharing.example.org/password-reset';
const PLATFORM_NAME = 'foodsharing';
const LOGO_URL = 'https://tafel.example.org/logo.svg';
const CLIENT = {
  name: 'Tafel-App "Süd" & Co',
  clientUri: 'https://tafel.example.org/',
  policyUri: 'https://tafel.example.org/datenschutz',
  tosUri: 'https://tafel.example.org/agb',
};
// The client's logo, answered by the browser test itself: the page loads it from an https host.
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" rx="10" fill="#c2410c"/><path d="M14 30h20l-3-12H17z" fill="#fff"/></svg>`;

interface Journey {
  name: string;
  locale: 'de-DE' | 'en-US';
  width: number;
  height: number;
  colorScheme: 'light' | 'dark';
}

const JOURNEYS: Journey[] = [
  { name: 'de-desktop', locale: 'de-DE', width: 1280, height: 800, colorScheme: 'light' },
  { name: 'en-phone', locale: 'en-US', width: 375, height: 740, colorScheme: 'light' },
  { name: 'en-desktop', locale: 'en-US', width: 1280, height: 800, colorScheme: 'light' },
  { name: 'de-phone', locale: 'de-DE', width: 375, height: 740, colorScheme: 'light' },
  { name: 'en-phone-dark', locale: 'en-US', width: 375, height: 740, colorScheme: 'dark' },
];

// The page-side code, as text: the service is compiled without the DOM's types.
const LOGO_WIDTH = `new Promise((resolve) => {
  const img = document.querySelector('img.client-logo');
  if (img.complete) resolve(img.naturalWidth);
  img.addEventListener('load', () => resolve(img.naturalWidth));
  img.addEventListener('error', () => resolve(0));
})`;
const STYLED = `getComputedStyle(document.querySelector('.card')).borderTopLeftRadius`;

test.override('listen', { scope: 'file' }, true);
test.override(
  'appEnv',
  { scope: 'file' },
  {
    PLATFORM_NAME,
    PASSWORD_RESET_URL,
    // Every journey signs in once with a wrong password, from the same address.
    LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP: '100',
    INTERACTION_REQUESTS_PER_IP_PER_MINUTE: '10000',
  },
);

describe('the sign-in pages as a volunteer sees them (headless Chromium)', () => {
  let app: AuthApp;
  let origin: string;
  let browser: Browser;
  let callback: CallbackServer;
  const clientId = `pages-${randomBytes(4).toString('hex')}`;

  test.beforeAll(async ({ app: listening, origin: served, browser: chromium, callback: cb }) => {
    // The helpers below are the file's and use its one app, browser and callback.
    app = listening;
    origin = served;
    browser = chromium;
    callback = cb;
    await createOAuthClient(
      app.orm.em.fork(),
      {
        clientId,
        ...CLIENT,
        logoUri: LOGO_URL,
        confidential: false,
        redirectUris: [callback.url],
        scopes: ['openid', 'profile', 'email'],
        grantTypes: ['authorization_code', 'refresh_token'],
      },
      { pepper: servicesOf(app).secrets.clientSecretPepper },
    );
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  test.afterAll(() => {
    console.log(`Screenshots of the sign-in pages: ${SCREENSHOTS}`);
  });

  // Each journey sees the consent page: nobody's choice from an earlier one is remembered.
  test.beforeEach(async () => {
    for (const user of [ids.users.alice, ids.users.bob])
      await servicesOf(app).consents.revoke(user, clientId);
  });

  function authorizeUrl(overrides: Record<string, string> = {}): string {
    return `${origin}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback.url,
      scope: 'openid profile email offline_access',
      state: randomBytes(8).toString('hex'),
      code_challenge: hash('sha256', randomBytes(32).toString('base64url'), 'base64url'),
      code_challenge_method: 'S256',
      ...overrides,
    }).toString()}`;
  }

  async function newJourneyPage(journey: Journey) {
    const context = await browser.newContext({
      viewport: { width: journey.width, height: journey.height },
      locale: journey.locale,
      colorScheme: journey.colorScheme,
    });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);
    await context.route(LOGO_URL, (route) =>
      route.fulfill({ status: 200, contentType: 'image/svg+xml', body: LOGO_SVG }),
    );
    const page = await context.newPage();
    await page.addInitScript(RECORD_CSP_VIOLATIONS);
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      // The refused login and the error pages answer 4xx by design, which Chromium logs.
      if (
        /^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
      ) {
        return;
      }
      if (message.type() === 'error' || /security policy/i.test(message.text())) {
        consoleErrors.push(message.text());
      }
    });
    return { context, page, consoleErrors };
  }

  /** Checks the page as it stands and keeps its screenshot; returns the file's path. */
  async function inspect(page: Page, journey: Journey, name: string, consoleErrors: string[]) {
    const where = `${name} (${journey.name})`;
    // A form posted back to its own page (the refused login) gives no URL to wait for: the alert
    // is in the new page before its stylesheet is (the card measured 0px once in CI).
    await page.waitForLoadState('load');
    expect(await wcagViolations(page), where).toEqual([]);
    const widths = await page.evaluate<{ scroll: number; inner: number }>(PAGE_WIDTHS);
    expect(widths.scroll, `${where}: no horizontal scrolling`).toBeLessThanOrEqual(widths.inner);
    expect(await page.evaluate('window.cspViolations'), where).toEqual([]);
    expect(consoleErrors, where).toEqual([]);
    // The stylesheet arrived and applies (the CSP allows it): the frame's card is rounded.
    expect(await page.evaluate<string>(STYLED), where).toBe('12px');
    await expect(page.locator('header .brand').textContent()).resolves.toContain(PLATFORM_NAME);
    const file = `${SCREENSHOTS}${name}-${journey.name}.png`;
    await page.screenshot({ path: file, fullPage: true });
    return file;
  }

  async function submit(page: Page, button: string, leaving: (url: URL) => boolean) {
    await Promise.all([
      page.waitForURL(leaving),
      page.getByRole('button', { name: button, exact: true }).click(),
    ]);
  }

  it.for(JOURNEYS)(
    'login, consent, connected apps, logout and the error pages: $name',
    { timeout: TEST_TIMEOUT_MS },
    async (journey) => {
      const { context, page, consoleErrors } = await newJourneyPage(journey);
      const de = journey.locale === 'de-DE';
      try {
        await page.goto(authorizeUrl());
        await page.waitForURL((url) => url.pathname === '/login');
        const forgot = page.getByRole('link', {
          name: de ? 'Passwort vergessen?' : 'Forgot your password?',
        });
        expect(await forgot.getAttribute('href')).toBe(PASSWORD_RESET_URL);
        await page.getByText(CLIENT.name).first().waitFor();
        await inspect(page, journey, 'login', consoleErrors);

        const email = page.getByLabel(de ? 'E-Mail-Adresse' : 'Email address');
        const password = page.getByLabel(de ? 'Passwort' : 'Password', { exact: true });
        const signIn = de ? 'Anmelden' : 'Sign in';
        await email.fill(DemoUserEmail.alice);
        await password.fill('not the password');
        await submit(page, signIn, (url) => url.pathname === '/login');
        await page.getByRole('alert').waitFor();
        await inspect(page, journey, 'login-error', consoleErrors);

        await password.fill(DEMO_PASSWORD);
        await submit(page, signIn, (url) => url.pathname === '/oauth/consent');
        const who = page.locator('.who');
        expect(await who.textContent()).toContain(DemoUserEmail.alice);
        const destination = new URL(callback.url).host;
        expect(await page.locator('.destination').textContent()).toBe(destination);
        for (const [text, href] of [
          [de ? 'Datenschutzerklärung' : 'Privacy policy', CLIENT.policyUri],
          [de ? 'Nutzungsbedingungen' : 'Terms of service', CLIENT.tosUri],
          [de ? 'Website der Anwendung' : "The app's website", CLIENT.clientUri],
        ] as const) {
          expect(await page.getByRole('link', { name: text }).getAttribute('href')).toBe(href);
        }
        const logo = page.getByRole('img', { name: de ? /^Logo von / : /^Logo of / });
        // Loaded by the browser from the client's https host, which the consent CSP allows.
        await logo.waitFor();
        expect(await page.evaluate<number>(LOGO_WIDTH)).toBeGreaterThan(0);
        await inspect(page, journey, 'consent', consoleErrors);

        await page.getByLabel(de ? 'Diese Entscheidung merken' : 'Remember this choice').check();
        await submit(page, de ? 'Erlauben' : 'Allow', (url) => url.href.startsWith(callback.url));

        await page.goto(`${origin}/connected-apps`);
        await page.getByRole('heading', { name: CLIENT.name }).waitFor();
        await inspect(page, journey, 'connected-apps', consoleErrors);

        await page.goto(`${origin}/oauth/consent?request=gone`);
        await inspect(page, journey, 'error-expired-request', consoleErrors);

        await page.goto(authorizeUrl({ redirect_uri: 'https://elsewhere.example.org/cb' }));
        await page.getByText('Invalid redirect_uri').waitFor();
        await inspect(page, journey, 'error-invalid-redirect', consoleErrors);

        await page.goto(`${origin}/oauth/logout`);
        await page.locator('#confirm-logout').waitFor();
        await inspect(page, journey, 'logout-confirmation', consoleErrors);
        await Promise.all([page.waitForLoadState(), page.locator('#confirm-logout').click()]);
        await page.locator('#logged-out').waitFor();
        await inspect(page, journey, 'logged-out', consoleErrors);
      } finally {
        await context.close();
      }
    },
  );

  it(
    '"not you?" on the consent page ends the session and signs someone else in to the same request',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const journey = JOURNEYS[1] as Journey;
      const { context, page } = await newJourneyPage(journey);
      try {
        await page.goto(authorizeUrl());
        await page.waitForURL((url) => url.pathname === '/login');
        const requestId = new URL(page.url()).searchParams.get('request');
        await page.getByLabel('Email address').fill(DemoUserEmail.alice);
        await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
        await submit(page, 'Sign in', (url) => url.pathname === '/oauth/consent');
        expect(await page.locator('.who').textContent()).toContain(DemoUserEmail.alice);

        await submit(page, 'Not you? Sign in as someone else', (url) => url.pathname === '/login');
        expect(new URL(page.url()).searchParams.get('request')).toBe(requestId);
        expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('fs_session');
        await page.getByText(CLIENT.name).first().waitFor();

        await page.getByLabel('Email address').fill(DemoUserEmail.bob);
        await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
        await submit(page, 'Sign in', (url) => url.pathname === '/oauth/consent');
        expect(new URL(page.url()).searchParams.get('request')).toBe(requestId);
        const who = await page.locator('.who').textContent();
        expect(who).toContain(DemoUserEmail.bob);
        expect(who).not.toContain(DemoUserEmail.alice);
        await submit(page, 'Allow', (url) => url.href.startsWith(callback.url));
        expect(new URL(page.url()).searchParams.get('code')).toMatch(/.{20,}/);
      } finally {
        await context.close();
      }
    },
  );
});

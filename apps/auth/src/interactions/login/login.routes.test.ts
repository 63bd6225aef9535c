import { servicesOf } from '../../test-support/build-test-app.ts';
import { randomUUID } from 'node:crypto';
import {
  createUser,
  DEMO_PASSWORD,
  DemoClientId,
  DemoUserEmail,
  Role,
  UserEntity,
} from '@foodshare/domain';
import type { AuthApp } from '../../app.ts';
import {
  authorizeUrl,
  formBody,
  hiddenField,
  pendingRequestId,
  setCookies,
} from '../../test-support/authorization-helpers.ts';
import { describe, expect, ids, it, test } from '../../test-support/fixtures.ts';

test.override('appEnv', { scope: 'file' }, { LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP: '2' });

describe('the login page, GET and POST /login, and POST /logout', () => {
  async function openLoginPage(app: AuthApp, url = '/login', headers: Record<string, string> = {}) {
    const page = await app.inject({ method: 'GET', url, headers });
    expect(page.statusCode).toBe(200);
    return { page, cookies: setCookies(page), csrf: hiddenField(page.body, 'csrf') };
  }

  async function postLogin(
    app: AuthApp,
    fields: Record<string, string>,
    options: { cookies?: Record<string, string>; remoteAddress?: string } = {},
  ) {
    return app.inject({
      method: 'POST',
      url: '/login',
      ...formBody(fields),
      ...(options.cookies ? { cookies: options.cookies } : {}),
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
  }

  async function auditCount(app: AuthApp, event: string): Promise<number> {
    const metric = await servicesOf(app).metrics.auditEventsTotal.get();
    return metric.values.find((value) => value.labels.event === event)?.value ?? 0;
  }

  it('shows a form with email, password and a CSRF field, backed by an HttpOnly SameSite=Lax cookie', async ({
    app,
  }) => {
    const { page } = await openLoginPage(app);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('name="email"');
    expect(page.body).toContain('name="password"');
    const cookie = page.cookies.find((c) => c.name === 'fs_login_csrf');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(hiddenField(page.body, 'csrf')).toBe(cookie?.value);
  });

  it('forbids framing of the login page and keeps it out of caches', async ({ app }) => {
    const { page } = await openLoginPage(app);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('speaks German with Accept-Language de', async ({ app }) => {
    const { page } = await openLoginPage(app, '/login', { 'accept-language': 'de' });
    expect(page.body).toContain('Passwort');
    expect(page.headers['content-language']).toBe('de');
  });

  it('starts the same session as the REST login, under a new id, and answers 303', async ({
    app,
    signIn,
  }) => {
    const old = await signIn(ids.users.alice);
    const { cookies, csrf } = await openLoginPage(app);
    const before = await auditCount(app, 'login_succeeded');
    const response = await postLogin(
      app,
      { email: DemoUserEmail.alice, password: DEMO_PASSWORD, csrf },
      { cookies: { ...cookies, ...old.cookies } },
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/connected-apps');
    const sessionCookie = response.cookies.find((c) => c.name === 'fs_session');
    expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(sessionCookie?.value).not.toBe(old.cookies.fs_session);
    const session = await app.sessions.find(sessionCookie?.value ?? '');
    expect(session?.userId).toBe(ids.users.alice);
    // With the account the login read, as the REST login keeps it (docs/design.md §3.11).
    expect(session?.account).toMatchObject({ role: Role.StoreManager, verified: true });
    expect(await app.sessions.find(old.cookies.fs_session ?? '')).toBeNull();
    expect(response.cookies.find((c) => c.name === 'CSRF_TOKEN')?.httpOnly).toBeFalsy();
    expect(await auditCount(app, 'login_succeeded')).toBe(before + 1);
  });

  it('keeps the session beyond the browser with "keep me signed in"', async ({ app }) => {
    const { cookies, csrf } = await openLoginPage(app);
    const response = await postLogin(
      app,
      { email: DemoUserEmail.carla, password: DEMO_PASSWORD, csrf, rememberMe: 'on' },
      { cookies },
    );
    expect(response.cookies.find((c) => c.name === 'fs_session')?.maxAge).toBeGreaterThan(86400);
  });

  it('refuses a login form without its CSRF field, starting no session', async ({ app }) => {
    const { cookies } = await openLoginPage(app);
    const response = await postLogin(
      app,
      { email: DemoUserEmail.alice, password: DEMO_PASSWORD },
      { cookies },
    );
    expect(response.statusCode).toBe(403);
    expect(response.cookies.find((c) => c.name === 'fs_session')).toBeUndefined();
    expect(response.body).toContain('The form has expired');
  });

  it('refuses a login form whose CSRF field does not match the cookie (a cross-site post)', async ({
    app,
  }) => {
    const { csrf } = await openLoginPage(app);
    const response = await postLogin(
      app,
      { email: DemoUserEmail.alice, password: DEMO_PASSWORD, csrf },
      { cookies: { fs_login_csrf: 'f'.repeat(32) } },
    );
    expect(response.statusCode).toBe(403);
    expect(response.cookies.find((c) => c.name === 'fs_session')).toBeUndefined();
  });

  it('answers an unknown email and a wrong password with the same message', async ({ app }) => {
    const { cookies, csrf } = await openLoginPage(app);
    const before = await auditCount(app, 'login_failed');
    const unknown = await postLogin(
      app,
      { email: 'nobody@example.org', password: DEMO_PASSWORD, csrf },
      { cookies, remoteAddress: '10.1.0.1' },
    );
    const wrong = await postLogin(
      app,
      { email: DemoUserEmail.dana, password: 'not the password', csrf },
      { cookies, remoteAddress: '10.1.0.2' },
    );
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    const message = (body: string) => /<p class="error"[^>]*>([^<]*)<\/p>/.exec(body)?.[1];
    expect(message(unknown.body)).toBe('Email address or password is wrong.');
    expect(message(wrong.body)).toBe(message(unknown.body));
    // The address typed is kept, the password never echoed.
    expect(wrong.body).toContain(`value="${DemoUserEmail.dana}"`);
    expect(wrong.body).not.toContain('not the password');
    expect(await auditCount(app, 'login_failed')).toBe(before + 2);
  });

  it('tells only whoever knows the password that the account is not active', async ({ app }) => {
    const em = app.orm.em.fork();
    const email = `inactive-${randomUUID()}@example.org`;
    const user = await createUser(em, {
      firstName: 'Inaktiv',
      lastName: 'Person',
      email,
      password: 'a-long-test-password',
      verified: true,
    });
    await em.flush();
    await em.nativeUpdate(UserEntity, { id: user.id }, { activated: false });
    const { cookies, csrf } = await openLoginPage(app);
    const message = (body: string) => /<p class="error"[^>]*>([^<]*)<\/p>/.exec(body)?.[1];
    const right = await postLogin(
      app,
      { email, password: 'a-long-test-password', csrf },
      { cookies, remoteAddress: '10.4.0.1' },
    );
    expect(right.statusCode).toBe(403);
    expect(message(right.body)).toBe(
      'This account is not active: it has not been activated yet, or it was deactivated. Follow the link in your activation email, or contact support.',
    );
    expect(setCookies(right).fs_session).toBeUndefined();
    // A wrong password learns nothing of the account: the answer of an unknown address.
    const wrong = await postLogin(
      app,
      { email, password: 'not the password', csrf },
      { cookies, remoteAddress: '10.4.0.2' },
    );
    const unknown = await postLogin(
      app,
      { email: `nobody-${randomUUID()}@example.org`, password: 'not the password', csrf },
      { cookies, remoteAddress: '10.4.0.3' },
    );
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(message(wrong.body)).toBe('Email address or password is wrong.');
    expect(message(unknown.body)).toBe(message(wrong.body));
  });

  it('throttles like the REST login: 429 with Retry-After and a message saying when', async ({
    app,
  }) => {
    const { cookies, csrf } = await openLoginPage(app);
    const attempt = (app: AuthApp) =>
      postLogin(
        app,
        { email: DemoUserEmail.kim, password: 'guess', csrf },
        { cookies, remoteAddress: '10.2.0.1' },
      );
    expect((await attempt(app)).statusCode).toBe(401);
    expect((await attempt(app)).statusCode).toBe(401);
    const throttled = await attempt(app);
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled.body).toMatch(/Too many sign-in attempts\. Please try again in \d+ seconds\./);
  });

  it('continues a pending authorization request after login with 303, never 307', async ({
    app,
  }) => {
    const start = await app.inject({ method: 'GET', url: authorizeUrl() });
    const requestId = pendingRequestId(start);
    const { page, cookies, csrf } = await openLoginPage(app, `/login?request=${requestId}`);
    expect(page.body).toContain('Demo-App (öffentlich)');
    expect(hiddenField(page.body, 'request')).toBe(requestId);
    const response = await postLogin(
      app,
      { email: DemoUserEmail.orga, password: DEMO_PASSWORD, csrf, request: requestId },
      { cookies },
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/oauth/consent?request=${requestId}`);
  });

  it('returns to the local page named by return_to after login (the admin pages use it)', async ({
    app,
  }) => {
    const { page, cookies, csrf } = await openLoginPage(
      app,
      '/login?return_to=%2Fadmin%2Foauthclients',
    );
    expect(hiddenField(page.body, 'return_to')).toBe('/admin/oauthclients');
    const response = await postLogin(
      app,
      {
        email: DemoUserEmail.orga,
        password: DEMO_PASSWORD,
        csrf,
        return_to: '/admin/oauthclients',
      },
      { cookies },
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/admin/oauthclients');
  });

  it('never returns to another origin: an outside return_to is dropped', async ({ app }) => {
    const { page, cookies, csrf } = await openLoginPage(
      app,
      '/login?return_to=%2F%2Fevil.example%2F',
    );
    expect(page.body).not.toContain('evil.example');
    const response = await postLogin(
      app,
      { email: DemoUserEmail.orga, password: DEMO_PASSWORD, csrf, return_to: '//evil.example/' },
      { cookies },
    );
    expect(response.headers.location).toBe('/connected-apps');
  });

  it('never sends a logged-in user to another origin through a dot segment', async ({
    app,
    signIn,
  }) => {
    const alice = await signIn(ids.users.alice);
    for (const returnTo of [
      '/.//evil.example/x',
      '/%2e//evil.example/x',
      '/a/..//evil.example/x',
    ]) {
      const response = await app.inject({
        method: 'GET',
        url: `/login?return_to=${encodeURIComponent(returnTo)}`,
        cookies: alice.cookies,
      });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/connected-apps');
    }
  });

  it('shows the expired page for an unknown pending request', async ({ app }) => {
    const response = await app.inject({ method: 'GET', url: `/login?request=${'x'.repeat(32)}` });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Request expired');
  });

  it('sends a logged-in user without a pending request to the connected apps', async ({
    app,
    signIn,
  }) => {
    const alice = await signIn(ids.users.alice);
    const response = await app.inject({ method: 'GET', url: '/login', cookies: alice.cookies });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/connected-apps');
  });

  it('shows the login page to a logged-in user when the request asks for a fresh login', async ({
    app,
    signIn,
  }) => {
    const alice = await signIn(ids.users.alice);
    const start = await app.inject({
      method: 'GET',
      url: authorizeUrl({ client_id: DemoClientId.public, prompt: 'login' }),
      cookies: alice.cookies,
    });
    const page = await app.inject({
      method: 'GET',
      url: String(start.headers.location),
      cookies: alice.cookies,
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="password"');
  });

  it('logs out with the CSRF field of the session, answering 303 to the login page', async ({
    app,
    signIn,
  }) => {
    const alice = await signIn(ids.users.alice);
    const refused = await app.inject({
      method: 'POST',
      url: '/logout',
      cookies: alice.cookies,
      ...formBody({}),
    });
    expect(refused.statusCode).toBe(403);
    expect(await app.sessions.find(alice.cookies.fs_session ?? '')).not.toBeNull();
    const response = await app.inject({
      method: 'POST',
      url: '/logout',
      cookies: alice.cookies,
      ...formBody({ csrf: alice.headers['x-csrf-token'] }),
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login');
    expect(await app.sessions.find(alice.cookies.fs_session ?? '')).toBeNull();
  });

  it('"not you?": logs out and returns to the login page of the same authorization request', async ({
    app,
    signIn,
  }) => {
    const alice = await signIn(ids.users.alice);
    const start = await app.inject({ method: 'GET', url: authorizeUrl(), cookies: alice.cookies });
    const requestId = pendingRequestId(start);
    const response = await app.inject({
      method: 'POST',
      url: '/logout',
      cookies: alice.cookies,
      ...formBody({ csrf: alice.headers['x-csrf-token'] ?? '', request: requestId }),
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/login?request=${requestId}`);
    expect(await app.sessions.find(alice.cookies.fs_session ?? '')).toBeNull();
    // The request waits for whoever signs in now.
    const { page } = await openLoginPage(app, String(response.headers.location));
    expect(hiddenField(page.body, 'request')).toBe(requestId);
    expect(page.body).toContain('Demo-App (öffentlich)');
  });

  it('offers no "forgot your password?" without PASSWORD_RESET_URL', async ({ app }) => {
    const { page } = await openLoginPage(app);
    expect(page.body).not.toContain('forgot-password');
  });

  it('names the platform in the frame and links the one stylesheet, with no inline style', async ({
    app,
  }) => {
    const { page } = await openLoginPage(app, '/login', { 'accept-language': 'de' });
    expect(page.body).toContain('<span class="brand">');
    expect(page.body).toContain('<span>foodsharing</span>');
    expect(page.body).toContain('<title>Anmelden – foodsharing</title>');
    const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(page.body)?.[1] ?? '';
    expect(stylesheet).toMatch(/^\/oauth\/assets\/pages\.css\?v=[0-9a-f]{12}$/);
    expect(page.body).not.toMatch(/<style|style="/);
    const policy = String(page.headers['content-security-policy']);
    expect(policy.split('; ')).toContain("style-src 'self'");
    expect(policy).not.toMatch(/unsafe-inline|https:/);
    const css = await app.inject({ method: 'GET', url: stylesheet });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('prefers-color-scheme:dark');
    expect(css.body).toContain(':focus-visible');
  });
});

import { hash } from 'node:crypto';
import { createUser } from '@foodshare/domain';
import {
  ACCOUNT_FACTS_MAX_AGE_MS,
  deactivateAccount,
  RedisKeyValueStore,
  requireActor,
} from '@foodshare/server-kit';
import { countQueries } from '@foodshare/server-kit/test-support';
import { afterAll } from 'vitest';
import type { ApiApp } from '../../app.ts';
import { buildAppBeside } from '../../test-support/build-test-app.ts';
import { describe, expect, it, test } from '../../test-support/fixtures.ts';

const PASSWORD = 'correct horse battery staple';

type CookieJar = Record<string, string>;

function cookiesOf(response: { cookies: { name: string; value: string }[] }): CookieJar {
  return Object.fromEntries(response.cookies.map((c) => [c.name, c.value]));
}

const login = (app: ApiApp, body: object, remoteAddress = '10.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/login', payload: body, remoteAddress });

test.override(
  'appEnv',
  { scope: 'file' },
  {
    LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP: '3',
    LOGIN_MAX_FAILURES_PER_IP: '8',
  },
);

describe('sessions: POST /api/login, POST /api/logout, GET /api/users/current', () => {
  let redis: RedisKeyValueStore;

  test.beforeAll(async ({ app, testApp }) => {
    redis = await new RedisKeyValueStore(testApp.redis).connect();
    // What later routes will do: resolve the caller's role through the shared helper.
    app.get('/api/test-actor', (request) => requireActor(request));
    const em = app.orm.em.fork();
    await createUser(em, {
      firstName: 'Alice',
      lastName: 'Anders',
      email: 'ada@example.org',
      password: PASSWORD,
      role: 2,
      verified: true,
    });
    await createUser(em, {
      firstName: 'Theo',
      lastName: 'Throttled',
      email: 'theo@example.org',
      password: PASSWORD,
    });
    const dora = await createUser(em, {
      firstName: 'Dora',
      lastName: 'Dormant',
      email: 'dora@example.org',
      password: PASSWORD,
    });
    await em.execute('update users set activated = false where id = ?', [dora.id]);
  });

  afterAll(async () => {
    await redis.close();
  });

  it('logs in, sets an HttpOnly session cookie and a readable CSRF cookie, and knows the user', async ({
    app,
  }) => {
    const response = await login(app, { email: 'Ada@Example.org', password: PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      firstName: 'Alice',
      lastName: 'Anders',
      email: 'ada@example.org',
      role: 2,
      verified: true,
      isSleeping: false,
      avatar: null,
    });
    const session = response.cookies.find((c) => c.name === 'fs_session');
    const csrf = response.cookies.find((c) => c.name === 'CSRF_TOKEN');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(session?.maxAge).toBeUndefined();
    expect(csrf?.httpOnly).toBeFalsy();
    expect(csrf?.value).toMatch(/^[0-9a-f]{32}$/);

    const current = await app.inject({
      method: 'GET',
      url: '/api/users/current',
      cookies: { fs_session: session?.value ?? '' },
    });
    expect(current.statusCode).toBe(200);
    expect(current.json()).toEqual(response.json());
  });

  it('keeps a remembered session for 30 days', async ({ app }) => {
    const response = await login(app, {
      email: 'ada@example.org',
      password: PASSWORD,
      rememberMe: true,
    });
    const session = response.cookies.find((c) => c.name === 'fs_session');
    expect(session?.maxAge).toBe(30 * 24 * 60 * 60);
  });

  it('answers an unknown email and a wrong password identically', async ({ app }) => {
    const unknown = await login(
      app,
      { email: 'nobody@example.org', password: PASSWORD },
      '10.0.0.2',
    );
    const wrong = await login(app, { email: 'ada@example.org', password: 'wrong' }, '10.0.0.2');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    const strip = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
    expect(strip(unknown.json())).toEqual(strip(wrong.json()));
    expect(unknown.json()).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(unknown.cookies).toHaveLength(0);
  });

  it('tells a deactivated account apart only after the right password', async ({ app }) => {
    const wrong = await login(app, { email: 'dora@example.org', password: 'wrong' }, '10.0.0.3');
    expect(wrong.json()).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    const right = await login(app, { email: 'dora@example.org', password: PASSWORD }, '10.0.0.3');
    expect(right.statusCode).toBe(409);
    expect(right.json()).toMatchObject({ code: 'ACCOUNT_NOT_ACTIVATED' });
  });

  it('throttles an account from one address, even for the right password, with Retry-After', async ({
    app,
  }) => {
    for (let i = 0; i < 3; i++) {
      const failed = await login(app, { email: 'theo@example.org', password: 'nope' }, '10.1.0.1');
      expect(failed.statusCode).toBe(401);
    }
    const throttled = await login(
      app,
      { email: 'theo@example.org', password: PASSWORD },
      '10.1.0.1',
    );
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    const retryAfter = Number(throttled.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // Someone else's guesses do not lock the owner out from their own address.
    const owner = await login(app, { email: 'theo@example.org', password: PASSWORD }, '10.1.0.2');
    expect(owner.statusCode).toBe(200);
  });

  it('lets only the limit of a parallel burst of guesses reach the password check', async ({
    app,
  }) => {
    const burst = await Promise.all(
      Array.from({ length: 20 }, () =>
        login(app, { email: 'ada@example.org', password: 'guess' }, '10.3.0.1'),
      ),
    );
    const statuses = burst.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(17);
  });

  it('throttles one address that tries many accounts', async ({ app }) => {
    for (let i = 0; i < 8; i++) {
      await login(app, { email: `spray${i}@example.org`, password: 'nope' }, '10.2.0.1');
    }
    const throttled = await login(
      app,
      { email: 'ada@example.org', password: PASSWORD },
      '10.2.0.1',
    );
    expect(throttled.statusCode).toBe(429);
    const elsewhere = await login(
      app,
      { email: 'ada@example.org', password: PASSWORD },
      '10.2.0.2',
    );
    expect(elsewhere.statusCode).toBe(200);
  });

  it('rejects a malformed login body with a validation problem', async ({ app }) => {
    const response = await login(app, { email: 'not-an-email' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(response.json().errors.length).toBeGreaterThan(0);
  });

  it.for<[string, object]>([
    ['an email', { email: 'ada@example.org\u0000', password: 'x' }],
    ['a password', { email: 'ada@example.org', password: 'pass\u0000word' }],
  ])('rejects a NUL character in %s with a validation problem', async ([_what, body], { app }) => {
    const response = await login(app, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
  });

  it('answers 401 to an anonymous or unknown session', async ({ app }) => {
    const anonymous = await app.inject({ method: 'GET', url: '/api/users/current' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(anonymous.json().requestId).toBe(anonymous.headers['x-request-id']);
    const forged = await app.inject({
      method: 'GET',
      url: '/api/users/current',
      cookies: { fs_session: 'A'.repeat(43) },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('requires the CSRF token to log out, then ends the session', async ({ app }) => {
    const loggedIn = await login(app, { email: 'ada@example.org', password: PASSWORD });
    const { id: userId } = loggedIn.json<{ id: number }>();
    const cookies = cookiesOf(loggedIn);
    await app.endedSessions.take();
    const withoutToken = await app.inject({ method: 'POST', url: '/api/logout', cookies });
    expect(withoutToken.statusCode).toBe(403);
    expect(withoutToken.json()).toMatchObject({ code: 'CSRF_FAILED' });
    const wrongToken = await app.inject({
      method: 'POST',
      url: '/api/logout',
      cookies,
      headers: { 'x-csrf-token': '0'.repeat(32) },
    });
    expect(wrongToken.statusCode).toBe(403);

    const loggedOut = await app.inject({
      method: 'POST',
      url: '/api/logout',
      cookies,
      headers: { 'x-csrf-token': cookies.CSRF_TOKEN },
    });
    expect(loggedOut.statusCode).toBe(200);
    const after = await app.inject({ method: 'GET', url: '/api/users/current', cookies });
    expect(after.statusCode).toBe(401);
    // Recorded once, for the authorization server's back-channel logout; refused ones not.
    expect(await app.endedSessions.take()).toEqual([{ userId, endedAt: expect.any(Number) }]);
  });

  it('re-sends a remembered session cookie when the server extends the session', async ({
    app,
  }) => {
    const cookies = cookiesOf(
      await login(app, { email: 'ada@example.org', password: PASSWORD, rememberMe: true }),
    );
    const fresh = await app.inject({ method: 'GET', url: '/api/users/current', cookies });
    expect(fresh.cookies).toHaveLength(0);
    // As if ten days had passed since the last request.
    const storedUnder = hash('sha256', cookies.fs_session ?? '', 'base64url');
    const twentyDays = 20 * 24 * 60 * 60 * 1000;
    const stored = JSON.parse((await redis.get(`session:${storedUnder}`)) ?? 'null') as object;
    await redis.set(
      `session:${storedUnder}`,
      JSON.stringify({ ...stored, expiresAt: Date.now() + twentyDays }),
      twentyDays,
    );
    const later = await app.inject({ method: 'GET', url: '/api/users/current', cookies });
    expect(later.statusCode).toBe(200);
    const resent = later.cookies.find((c) => c.name === 'fs_session');
    expect(resent).toMatchObject({ value: cookies.fs_session, maxAge: 30 * 24 * 60 * 60 });
    expect(await redis.ttlMs(`session:${storedUnder}`)).toBeGreaterThan(29 * 24 * 60 * 60 * 1000);
  });

  it('resolves the caller for permission checks, and refuses a deactivated account', async ({
    app,
    sql,
  }) => {
    const anonymous = await app.inject({ method: 'GET', url: '/api/test-actor' });
    expect(anonymous.statusCode).toBe(401);
    const cookies = cookiesOf(await login(app, { email: 'ada@example.org', password: PASSWORD }));
    const actor = await app.inject({ method: 'GET', url: '/api/test-actor', cookies });
    expect(actor.json()).toMatchObject({ role: 2, verified: true });
    const ada = (await app.sessions.find(cookies.fs_session ?? ''))!.userId;
    await deactivateAccount(app.orm.em.fork(), app.sessions, ada);
    try {
      const refused = await app.inject({ method: 'GET', url: '/api/test-actor', cookies });
      expect(refused.statusCode).toBe(401);
    } finally {
      await sql('update users set activated = true where id = ?', [ada]);
    }
  });

  it('knows the caller from the session’s account facts, and reads them again once they are old', async ({
    app,
    sql,
  }) => {
    const cookies = cookiesOf(await login(app, { email: 'ada@example.org', password: PASSWORD }));
    const key = `session:${hash('sha256', cookies.fs_session ?? '', 'base64url')}`;
    const stored = async () =>
      JSON.parse((await redis.get(key)) ?? 'null') as { account?: { role: number } };
    const whoAmI = () => app.inject({ method: 'GET', url: '/api/test-actor', cookies });
    // The login read the account: the request needs no statement to know its caller.
    expect((await stored()).account).toMatchObject({ role: 2, verified: true });
    const { result, queries } = await countQueries(app.orm, whoAmI);
    expect(result.json()).toMatchObject({ role: 2 });
    expect(queries).toBe(0);

    // A change behind the sessions' back (SQL, or a release before the facts): it shows once
    // the facts are older than their bound, and the session then keeps what was read.
    await sql("update users set role = 3 where email = 'ada@example.org'");
    try {
      const record = await redis.getWithTtl(key);
      const aged = JSON.parse(record!.value) as { account: { readAt: number } };
      aged.account.readAt -= ACCOUNT_FACTS_MAX_AGE_MS;
      await redis.set(key, JSON.stringify(aged), record!.ttlMs);
      expect((await whoAmI()).json()).toMatchObject({ role: 3 });
      expect((await stored()).account).toMatchObject({ role: 3 });
      expect((await countQueries(app.orm, whoAmI)).queries).toBe(0);
    } finally {
      await sql("update users set role = 2 where email = 'ada@example.org'");
    }
  });

  it('gives a new session id at login, so an earlier session id stops working', async ({ app }) => {
    const first = cookiesOf(await login(app, { email: 'ada@example.org', password: PASSWORD }));
    const second = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'ada@example.org', password: PASSWORD },
      cookies: first,
      remoteAddress: '10.0.0.1',
    });
    expect(second.statusCode).toBe(200);
    expect(cookiesOf(second).fs_session).not.toBe(first.fs_session);
    const old = await app.inject({ method: 'GET', url: '/api/users/current', cookies: first });
    expect(old.statusCode).toBe(401);
  });
});

describe('sessions in production', () => {
  it('sets Secure, __Host- prefixed cookies and reads them back', async ({ testApp }) => {
    // Beside the file's app, on its database: a second test app would replace that database.
    const app = await buildAppBeside(testApp, {
      NODE_ENV: 'production',
      BASE_URL: 'https://food.example.org',
    });
    try {
      await createUser(app.orm.em.fork(), {
        firstName: 'Pat',
        lastName: 'Prod',
        email: 'pat@example.org',
        password: PASSWORD,
      });
      const response = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'pat@example.org', password: PASSWORD },
      });
      expect(response.statusCode).toBe(200);
      const session = response.cookies.find((c) => c.name === '__Host-fs_session');
      const csrf = response.cookies.find((c) => c.name === '__Host-CSRF_TOKEN');
      expect(session).toMatchObject({ secure: true, httpOnly: true, path: '/' });
      expect(csrf).toMatchObject({ secure: true, path: '/' });
      // The platform's web client reads its token from document.cookie with this expression.
      const documentCookie = `${session?.name}=${session?.value}; ${csrf?.name}=${csrf?.value}`;
      expect(/CSRF_TOKEN=([0-9a-f]+)/.exec(documentCookie)?.[1]).toBe(csrf?.value);
      const current = await app.inject({
        method: 'GET',
        url: '/api/users/current',
        cookies: { '__Host-fs_session': session?.value ?? '' },
      });
      expect(current.json()).toMatchObject({ email: 'pat@example.org' });
    } finally {
      await app.close();
    }
  });
});

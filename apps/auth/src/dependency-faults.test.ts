import { buildTestAuthServer, servicesOf } from './test-support/build-test-app.ts';
import {
  DEMO_PASSWORD,
  DemoClientId,
  DemoUserEmail,
  type DemoDataIds,
  prepareDemoDatabase,
} from '@foodshare/domain';
import {
  type DisposablePostgres,
  type DisposableRedis,
  startDisposablePostgres,
  startDisposableRedis,
} from '@foodshare/testing';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthApp } from './app.ts';
import { loadConfig } from './config.ts';
import {
  authorizeUrl,
  formBody,
  hiddenField,
  setCookies,
} from './test-support/authorization-helpers.ts';
import {
  basicAuth,
  DEMO_CLIENT_SECRET,
  DEMO_REDIRECT_URI,
  tokenRequest,
  tokensFor,
  userinfoRequest,
} from './test-support/token-helpers.ts';

// PostgreSQL and Redis of this file's own, which it pauses and stops: the authorization server
// must answer 503 with Retry-After within about a second while one is gone, never hang nor 500,
// and serve again by itself once it is back (as apps/api/src/dependency-faults.test.ts asks of
// the api). The real bounds apply: no test-only timeouts.

type Answer = LightMyRequestResponse | 'hung';

describe('the authorization server when PostgreSQL or Redis fails', () => {
  let postgres: DisposablePostgres;
  let redis: DisposableRedis;
  let ids: DemoDataIds;
  let app: AuthApp;
  let accessToken: string;
  let login: { cookies: Record<string, string>; csrf: string };

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startDisposablePostgres(), startDisposableRedis()]);
    ids = await prepareDemoDatabase(postgres.url);
    app = await buildTestAuthServer(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: postgres.url,
        REDIS_URL: redis.url,
        // The retries below log in again and again from one address.
        INTERACTION_REQUESTS_PER_IP_PER_MINUTE: '100000',
      }),
    );
    await app.ready();
    accessToken = (await tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.bob }))
      .access_token;
    const page = await app.inject({ method: 'GET', url: '/login' });
    login = { cookies: setCookies(page), csrf: hiddenField(page.body, 'csrf') };
  }, 120_000);

  afterAll(async () => {
    postgres?.resume();
    redis?.resume();
    await app?.close();
    await Promise.all([postgres?.dispose(), redis?.dispose()]);
  }, 60_000);

  /** The answer and how long it took, or 'hung' once the bound has passed. */
  async function timed(request: Promise<LightMyRequestResponse>, boundMs = 5_000) {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), boundMs);
    });
    const answer: Answer = await Promise.race([request, hung]);
    clearTimeout(timer);
    return { answer, ms: performance.now() - started };
  }

  /**
   * The doors of the service, each needing both stores: a token request of a confidential client
   * whose row this instance has not read yet (its secret is checked on the row from PostgreSQL,
   * its failures counted in Redis; a remembered row needs Redis alone, docs/oauth.md §6.4), userinfo (the deny
   * list in Redis, the claims in PostgreSQL), a login (throttle in Redis, the account in
   * PostgreSQL) and an authorization request (the client in PostgreSQL, the parked request in
   * Redis). The code is made up: the stores are asked before it is looked at.
   */
  const doors = {
    '/oauth/token': () => {
      servicesOf(app).clientRows.forget(DemoClientId.confidential);
      return tokenRequest(
        app,
        { grant_type: 'authorization_code', code: 'made-up', redirect_uri: DEMO_REDIRECT_URI },
        { authorization: basicAuth(DemoClientId.confidential, DEMO_CLIENT_SECRET) },
      );
    },
    '/oauth/userinfo': () => userinfoRequest(app, accessToken),
    '/login': () =>
      app.inject({
        method: 'POST',
        url: '/login',
        cookies: login.cookies,
        ...formBody({ email: DemoUserEmail.alice, password: DEMO_PASSWORD, csrf: login.csrf }),
      }),
    '/oauth/authorize': () => app.inject({ method: 'GET', url: authorizeUrl() }),
  };

  /** What each door answers when all is well. */
  const healthy: Record<keyof typeof doors, number> = {
    '/oauth/token': 400, // invalid_grant: the made-up code, after the client authenticated
    '/oauth/userinfo': 200,
    '/login': 303,
    '/oauth/authorize': 302, // to the login page
  };

  /** The pages of the interaction answer problem+json; the protocol endpoints their RFC's JSON. */
  const problemDoors = new Set(['/login', '/oauth/authorize']);

  async function expectUnavailableEverywhere(code: string) {
    for (const [door, send] of Object.entries(doors)) {
      const { answer, ms } = await timed(send());
      expect(answer, door).not.toBe('hung');
      if (answer === 'hung') continue;
      expect(answer.statusCode, door).toBe(503);
      expect(answer.headers['retry-after'], door).toBe('1');
      expect(ms, door).toBeLessThan(2_000);
      if (problemDoors.has(door)) {
        expect(answer.headers['content-type'], door).toMatch(/^application\/problem\+json/);
        expect(answer.json(), door).toMatchObject({ status: 503, code });
      } else {
        // The protocol endpoints answer in their RFC's shape (RFC 6749 5.2, RFC 6750 3.1).
        expect(answer.headers['content-type'], door).toMatch(/^application\/json/);
        expect(answer.json(), door).toMatchObject({ error: 'temporarily_unavailable' });
      }
    }
    // Readiness says so too, as quickly: the load balancer takes the instance out.
    const ready = await timed(app.inject('/health/ready'));
    expect(ready.answer !== 'hung' && ready.answer.statusCode).toBe(503);
    expect(ready.ms).toBeLessThan(2_000);
  }

  /** Retries every door until each answers as when healthy, for at most `boundMs`. */
  async function servesAgainWithin(boundMs: number) {
    const deadline = Date.now() + boundMs;
    const last: Record<string, number | 'hung'> = {};
    for (const [door, send] of Object.entries(doors)) {
      const want = healthy[door as keyof typeof doors];
      for (;;) {
        const { answer } = await timed(send(), 3_000);
        last[door] = answer === 'hung' ? 'hung' : answer.statusCode;
        if (last[door] === want || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return last;
  }

  it('serves every door while both stores are up', async () => {
    expect(await servesAgainWithin(5_000)).toEqual(healthy);
  });

  it('answers 503 within about a second while PostgreSQL is paused, and recovers', async () => {
    postgres.pause();
    try {
      await expectUnavailableEverywhere('DATABASE_UNAVAILABLE');
    } finally {
      postgres.resume();
    }
    expect(await servesAgainWithin(5_000)).toEqual(healthy);
  });

  it('answers 503 while PostgreSQL is stopped, and recovers once it is back', async () => {
    await postgres.stop();
    try {
      await expectUnavailableEverywhere('DATABASE_UNAVAILABLE');
    } finally {
      await postgres.start();
    }
    expect(await servesAgainWithin(10_000)).toEqual(healthy);
  });

  it('answers 503 within about a second while Redis is paused, and recovers', async () => {
    redis.pause();
    try {
      await expectUnavailableEverywhere('STATE_STORE_UNAVAILABLE');
    } finally {
      redis.resume();
    }
    expect(await servesAgainWithin(5_000)).toEqual(healthy);
  });

  it('answers 503 while Redis is stopped, and recovers once it is back', async () => {
    await redis.stop();
    try {
      await expectUnavailableEverywhere('STATE_STORE_UNAVAILABLE');
    } finally {
      await redis.start();
    }
    expect(await servesAgainWithin(10_000)).toEqual(healthy);
  });
});

import { servicesOf } from '../test-support/build-test-app.ts';
import type { ApiApp } from '@foodshare/api/app';
import { signInAs } from '@foodshare/server-kit/test-support';
import { request as httpRequest } from 'node:http';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import type { AuthApp } from '../app.ts';
import { formBody } from '../test-support/authorization-helpers.ts';
import { describe, expect, ids, test as base } from '../test-support/fixtures.ts';
import { startLogoutReceiver, type ReceivedLogout } from '../test-support/logout-receiver.ts';
import {
  DEMO_REDIRECT_URI,
  issueCode,
  pkcePair,
  refreshRequest,
  registerTestClient,
  tokenRequest,
  tokensFor,
} from '../test-support/token-helpers.ts';
import { publicOnlyLookup, RefusedLogoutTarget } from './backchannel-logout-delivery.ts';
import { BACKCHANNEL_LOGOUT_EVENT, BackchannelLogoutSender } from './backchannel-logout-sender.ts';

type LogoutReceiver = Awaited<ReturnType<typeof startLogoutReceiver>>;

/** The relying parties' endpoint on a real socket, for as long as the file runs. */
const test = base.extend(
  'receiver',
  { scope: 'file' },
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's needs from this pattern
  async ({}, { onCleanup }) => {
    const receiver = await startLogoutReceiver();
    onCleanup(() => receiver.close());
    return receiver;
  },
);
const it = test;

test.override(
  'appEnv',
  { scope: 'file' },
  {
    // Far above a loopback answer even on a busy machine, so only a held answer times out.
    BACKCHANNEL_LOGOUT_TIMEOUT_SECONDS: '2',
    BACKCHANNEL_LOGOUT_ATTEMPTS: '3',
    BACKCHANNEL_LOGOUT_RETRY_SECONDS: '0.05',
    BACKCHANNEL_LOGOUT_POLL_SECONDS: '0.05',
    // The receiver listens on loopback, which only this setting lets the server reach.
    BACKCHANNEL_LOGOUT_ALLOWED_HOSTS: '127.0.0.1',
  },
);

const CLIENTS = ['bc-app', 'bc-second', 'bc-ungranted'];

/**
 * OpenID Connect Back-Channel Logout 1.0 against a relying party's endpoint on a real socket:
 * the token is verified against the server's own JWKS, as a relying party would.
 */
describe('Back-Channel Logout: logout tokens POSTed to the clients', () => {
  let app: AuthApp;
  let api: ApiApp;
  let receiver: LogoutReceiver;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  const alice = ids.users.alice;

  test.beforeAll(async ({ app: built, restApi, receiver: listening }) => {
    // The helpers below are the file's and use its one app, REST service and receiver.
    app = built;
    api = restApi;
    receiver = listening;
    for (const clientId of CLIENTS) {
      await registerTestClient(app, {
        clientId,
        backchannelLogoutUri: `${receiver.origin}/${clientId}`,
      });
    }
    // A client with a grant but no URI is never called (nothing listens at its name anyway).
    await registerTestClient(app, { clientId: 'bc-silent' });
    const keys = await app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    jwks = createLocalJWKSet(keys.json<JSONWebKeySet>());
  });

  test.beforeEach(async () => {
    for (const clientId of [...CLIENTS, 'bc-silent']) {
      await servicesOf(app).grantRevocation.revokeGrant(alice, clientId);
    }
    await servicesOf(app).backchannelLogout.settled();
    receiver.reset();
  });

  const grantTo = (clientId: string) => tokensFor(app, { clientId, userId: alice });

  /** A request of alice's, signed in to `service`: her session cookie and CSRF header. */
  async function asAlice(service: AuthApp, method: 'POST' | 'DELETE', url: string) {
    const session = await signInAs(service, alice);
    return service.inject({ method, url, cookies: session.cookies, headers: session.headers });
  }

  /** Alice signs in, then out by the sign-out form of our pages. */
  async function signOutByForm() {
    const session = await signInAs(app, alice);
    return app.inject({
      method: 'POST',
      url: '/logout',
      cookies: session.cookies,
      ...formBody({ csrf: session.headers['x-csrf-token'] }),
    });
  }

  /** The logout token as the relying party checks it (§2.6), or the test fails. */
  async function verified(logout: ReceivedLogout, clientId: string) {
    expect(logout.contentType).toBe('application/x-www-form-urlencoded');
    const token = logout.form.get('logout_token') ?? '';
    const { payload, protectedHeader } = await jwtVerify(token, jwks, {
      issuer: servicesOf(app).issuer,
      audience: clientId,
      typ: 'logout+jwt',
      algorithms: ['RS256'],
    });
    expect(protectedHeader.kid).toEqual(expect.any(String));
    expect(payload).toMatchObject({
      sub: String(alice),
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      jti: expect.any(String),
    });
    expect(payload.exp! - payload.iat!).toBeGreaterThan(0);
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(120);
    expect(payload).not.toHaveProperty('nonce');
    expect(payload).not.toHaveProperty('sid');
    return payload;
  }

  it('on /oauth/logout tells each client with a grant, without making the user wait', async () => {
    const tokens = await grantTo('bc-app');
    await grantTo('bc-second');
    await grantTo('bc-silent');
    const session = await signInAs(app, alice);
    // The receiver holds its answers: a logout that waited for them would never answer.
    receiver.answer('hold', 'hold');
    const response = await app.inject({
      method: 'GET',
      url: `/oauth/logout?${new URLSearchParams({ id_token_hint: tokens.id_token! }).toString()}`,
      cookies: session.cookies,
    });
    expect(response.statusCode).toBe(200);
    const [first, second] = await Promise.all([receiver.nth(1), receiver.nth(2)]);
    receiver.release();
    await servicesOf(app).backchannelLogout.settled();
    const byPath = new Map([first, second].map((logout) => [logout.path, logout]));
    expect([...byPath.keys()].sort()).toEqual(['/bc-app', '/bc-second']);
    const one = await verified(byPath.get('/bc-app')!, 'bc-app');
    const two = await verified(byPath.get('/bc-second')!, 'bc-second');
    expect(one.jti).not.toBe(two.jti);
    expect(decodeProtectedHeader(byPath.get('/bc-app')!.form.get('logout_token')!).typ).toBe(
      'logout+jwt',
    );
    // Nobody else: not the client without a URI, not the one without a grant.
    expect(new Set(receiver.received.map((logout) => logout.path))).toEqual(
      new Set(['/bc-app', '/bc-second']),
    );
  });

  it('on the login page’s sign-out form tells the clients too', async () => {
    await grantTo('bc-app');
    expect((await signOutByForm()).statusCode).toBe(303);
    await verified(await receiver.nth(1), 'bc-app');
  });

  it('on the REST service’s logout tells the clients too, through the ended sessions', async () => {
    await grantTo('bc-app');
    expect((await asAlice(api, 'POST', '/api/logout')).statusCode).toBe(200);
    // Taken by the authorization server's next look (every 50 ms here).
    await verified(await receiver.nth(1), 'bc-app');
    await servicesOf(app).backchannelLogout.settled();
    expect(receiver.received).toHaveLength(1);
  });

  it('spares what the user signed in to after a sign-out that is handled late', async () => {
    await grantTo('bc-app');
    // A code of the session that ends, exchanged after the sign-out but before it is handled.
    const early = pkcePair();
    const earlyCode = await issueCode(app, {
      clientId: 'bc-app',
      userId: alice,
      codeChallenge: early.challenge,
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const endedAt = Date.now();
    // Signed in again after the sign-out, before the authorization server took it: a grant,
    // and a code not yet exchanged.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = await grantTo('bc-second');
    const { verifier, challenge } = pkcePair();
    const code = await issueCode(app, {
      clientId: 'bc-second',
      userId: alice,
      codeChallenge: challenge,
    });
    const earlyExchange = await tokenRequest(app, {
      grant_type: 'authorization_code',
      code: earlyCode,
      redirect_uri: DEMO_REDIRECT_URI,
      code_verifier: early.verifier,
      client_id: 'bc-app',
    });
    expect(earlyExchange.statusCode, earlyExchange.body).toBe(200);
    servicesOf(app).backchannelLogout.userLoggedOut(alice, endedAt);
    await servicesOf(app).backchannelLogout.settled();
    expect(receiver.received.map((logout) => logout.path)).toEqual(['/bc-app']);
    const earlyRefresh = await refreshRequest(
      app,
      'bc-app',
      earlyExchange.json<{ refresh_token: string }>().refresh_token,
    );
    expect(earlyRefresh.statusCode).toBe(400);
    const refreshed = await refreshRequest(app, 'bc-second', later.refresh_token!);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const exchanged = await tokenRequest(app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: DEMO_REDIRECT_URI,
      code_verifier: verifier,
      client_id: 'bc-second',
    });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
  });

  it('on revoking an app tells that app alone', async () => {
    await grantTo('bc-app');
    await grantTo('bc-second');
    expect((await asAlice(app, 'DELETE', '/oauth/grants/bc-second')).statusCode).toBe(204);
    await servicesOf(app).backchannelLogout.settled();
    expect(receiver.received.map((logout) => logout.path)).toEqual(['/bc-second']);
    await verified(receiver.received[0]!, 'bc-second');
  });

  it('retries a server error and a timeout with the same token, within the attempts', async () => {
    await grantTo('bc-app');
    receiver.answer(503, 'hold', 200);
    await signOutByForm();
    await servicesOf(app).backchannelLogout.settled();
    receiver.release();
    expect(receiver.received).toHaveLength(3);
    const jtis = await Promise.all(
      receiver.received.map(async (logout) => (await verified(logout, 'bc-app')).jti),
    );
    expect(new Set(jtis).size).toBe(1);
  });

  it('gives up after the last attempt, and at once on a refusal (4xx)', async () => {
    await grantTo('bc-app');
    receiver.answer(500, 500, 500, 500);
    servicesOf(app).backchannelLogout.userLoggedOut(alice);
    await servicesOf(app).backchannelLogout.settled();
    expect(receiver.received).toHaveLength(3);

    // The logout ended that grant; the user signs in to the app again.
    await grantTo('bc-app');
    receiver.reset();
    receiver.answer(400);
    servicesOf(app).backchannelLogout.userLoggedOut(alice);
    await servicesOf(app).backchannelLogout.settled();
    expect(receiver.received).toHaveLength(1);
  });

  it('tells nobody when the user holds no grant', async () => {
    servicesOf(app).backchannelLogout.userLoggedOut(alice);
    await servicesOf(app).backchannelLogout.settled();
    expect(receiver.received).toEqual([]);
  });

  // Issue 31, finding 2: every DELETE used to send a logout token, for any client, naming the user.
  it('sends nothing when revoking an app the user never authorised, however often', async () => {
    const session = await signInAs(app, alice);
    for (let i = 0; i < 100; i++) {
      const response = await app.inject({
        method: 'DELETE',
        url: '/oauth/grants/bc-ungranted',
        cookies: session.cookies,
        headers: session.headers,
      });
      expect(response.statusCode).toBe(204);
    }
    await servicesOf(app).backchannelLogout.settled();
    expect(receiver.received).toEqual([]);
  });

  it('sends one token for a revoked grant, not one per repeated revocation', async () => {
    await grantTo('bc-app');
    const session = await signInAs(app, alice);
    for (let i = 0; i < 100; i++) {
      await app.inject({
        method: 'DELETE',
        url: '/oauth/grants/bc-app',
        cookies: session.cookies,
        headers: session.headers,
      });
    }
    await servicesOf(app).backchannelLogout.settled();
    expect(receiver.received.map((logout) => logout.path)).toEqual(['/bc-app']);
  });

  it('bounds the tokens of grants made and revoked in a loop', async () => {
    // A client of its own: the bound counts per user, client and minute.
    await registerTestClient(app, {
      clientId: 'bc-loop',
      backchannelLogoutUri: `${receiver.origin}/bc-loop`,
    });
    for (let i = 0; i < 7; i++) {
      await grantTo('bc-loop');
      expect((await asAlice(app, 'DELETE', '/oauth/grants/bc-loop')).statusCode).toBe(204);
    }
    await servicesOf(app).backchannelLogout.settled();
    expect(receiver.received).toHaveLength(5);
  });
});

/**
 * Issue 31, finding 1: the server, not a browser, POSTs to the URI, so a URI naming a host
 * inside its network was a blind server-side request forgery. Rows registered before the rule
 * (written here directly) are refused at delivery too, and so is a name that resolves there.
 */
describe('Back-Channel Logout: no delivery inside the server’s network', () => {
  let app: AuthApp;
  let receiver: LogoutReceiver;

  test.beforeAll(async ({ app: built, services, receiver: listening }) => {
    app = built;
    receiver = listening;
    // The tests above may leave deliveries in flight: these start from a quiet receiver.
    await services.backchannelLogout.settled();
    receiver.reset();
  });

  function sender(allowedHosts: string[]) {
    return new BackchannelLogoutSender({
      sign: (claims, options) => servicesOf(app).keys.signJwt(claims, options),
      log: app.log,
      timeoutMs: 2000,
      attempts: 2,
      retryDelayMs: 10,
      allowedHosts,
    });
  }

  it('posts nothing to loopback, in any notation, nor to a name that resolves there', async () => {
    const port = new URL(receiver.origin).port;
    const closed = sender([]);
    closed.notify(
      ids.users.alice,
      Promise.resolve(
        [
          `http://127.0.0.1:${port}/plain`,
          `http://127.1:${port}/short`,
          `http://0x7f000001:${port}/hex`,
          `http://2130706433:${port}/decimal`,
          `http://localhost:${port}/name`,
          `https://127.0.0.1:${port}/tls`,
        ].map((uri, i) => ({ clientId: `inside-${i}`, uri })),
      ),
    );
    await closed.settled();
    expect(receiver.received).toEqual([]);

    // Exempted by the operator, the same receiver is reached: the refusal above was the rule's.
    const open = sender(['127.0.0.1']);
    open.notify(
      ids.users.alice,
      Promise.resolve([{ clientId: 'local-rp', uri: `http://127.0.0.1:${port}/allowed` }]),
    );
    await open.settled();
    expect(receiver.received.map((logout) => logout.path)).toEqual(['/allowed']);
  });

  it('checks the addresses a name resolves to when connecting, and connects to those', async () => {
    const port = Number(new URL(receiver.origin).port);
    receiver.reset();
    // `localhost` passes no URI rule, so the connection's own look-up is tried directly.
    const refused = await new Promise<Error>((resolve) => {
      const request = httpRequest(
        { host: 'localhost', port, method: 'POST', path: '/resolved', lookup: publicOnlyLookup },
        () => resolve(new Error('connected')),
      );
      request.on('error', resolve);
      request.end();
    });
    expect(refused).toBeInstanceOf(RefusedLogoutTarget);
    expect(receiver.received).toEqual([]);
    // A public address goes through as it was checked (a numeric host needs no name server).
    const resolved = await new Promise<unknown>((resolve, reject) => {
      publicOnlyLookup('93.184.215.14', { all: true }, (error, addresses) =>
        error ? reject(error) : resolve(addresses),
      );
    });
    expect(resolved).toEqual([{ address: '93.184.215.14', family: 4 }]);
  });
});

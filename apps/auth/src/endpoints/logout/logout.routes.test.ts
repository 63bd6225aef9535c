import { servicesOf } from '../../test-support/build-test-app.ts';
import type { ApiApp } from '@foodshare/api/app';
import { createOAuthClient, DEMO_REDIRECT_URI, DemoClientId } from '@foodshare/domain';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import { generateKeyPair, SignJWT } from 'jose';
import type { AuthApp } from '../../app.ts';
import { formBody, hiddenField } from '../../test-support/authorization-helpers.ts';
import { describe, expect, ids, it, test } from '../../test-support/fixtures.ts';
import { giveLegacyClientName } from '../../test-support/legacy-client-name.ts';

const BYE = 'https://rp.example.org/logged-out';
const OTHER_BYE = 'http://127.0.0.1:8400/bye?from=app';
const HOSTILE_NAME = '<script>alert(1)</script>';

/**
 * OpenID Connect RP-Initiated Logout 1.0 at GET and POST /oauth/logout, on the real app with
 * the REST service beside it on the same PostgreSQL database and Redis prefix: a session ended
 * here must be gone there too.
 */
describe('RP-Initiated Logout, GET and POST /oauth/logout', () => {
  let app: AuthApp;
  let api: ApiApp;

  test.beforeAll(async ({ app: built, restApi }) => {
    // The helpers below are the file's and use the one app of the file.
    app = built;
    api = restApi;
    const em = app.orm.em.fork();
    const common = {
      confidential: false,
      redirectUris: [DEMO_REDIRECT_URI],
      scopes: ['openid'],
      grantTypes: ['authorization_code'],
    };
    await createOAuthClient(
      em,
      {
        ...common,
        clientId: 'rp',
        name: 'Relying Party',
        postLogoutRedirectUris: [BYE, OTHER_BYE],
      },
      { pepper: '' },
    );
    await createOAuthClient(
      em,
      { ...common, clientId: 'hostile', name: 'Hostile', postLogoutRedirectUris: [BYE] },
      { pepper: '' },
    );
    await giveLegacyClientName(em, 'hostile', HOSTILE_NAME);
  });

  /** An ID token as the token endpoint signs it; `ageSeconds` back-dates it (expired when > 3600). */
  function idToken(userId: number, clientId = 'rp', ageSeconds = 0) {
    const iat = Math.floor(Date.now() / 1000) - ageSeconds;
    return servicesOf(app).keys.signJwt({
      sub: String(userId),
      aud: clientId,
      azp: clientId,
      iat,
      exp: iat + 3600,
    });
  }

  function logout(params: Record<string, string>, user?: SignedInClient) {
    return app.inject({
      method: 'GET',
      url: `/oauth/logout?${new URLSearchParams(params).toString()}`,
      ...(user ? { cookies: user.cookies } : {}),
    });
  }

  /** Whether the user's session still works, asked of the REST service. */
  async function apiKnows(user: SignedInClient): Promise<boolean> {
    const response = await api.inject({
      method: 'GET',
      url: '/api/users/current',
      cookies: user.cookies,
    });
    if (response.statusCode !== 200 && response.statusCode !== 401) {
      throw new Error(`users/current answered ${response.statusCode}`);
    }
    return response.statusCode === 200;
  }

  async function auditCount(event: string): Promise<number> {
    const metric = await servicesOf(app).metrics.auditEventsTotal.get();
    return metric.values.find((value) => value.labels.event === event)?.value ?? 0;
  }

  async function authKnows(user: SignedInClient): Promise<boolean> {
    const response = await app.inject({
      method: 'GET',
      url: '/connected-apps',
      cookies: user.cookies,
    });
    return response.statusCode === 200;
  }

  it('advertises /oauth/logout as end_session_endpoint', async () => {
    const response = await app.inject({ method: 'GET', url: '/.well-known/openid-configuration' });
    expect(response.json<{ end_session_endpoint: string }>().end_session_endpoint).toBe(
      `${servicesOf(app).issuer}/oauth/logout`,
    );
  });

  describe('with an id_token_hint naming the logged-in user', () => {
    it('ends the session of both services and returns to the registered URI with state', async () => {
      const alice = await signInAs(app, ids.users.alice);
      expect(await apiKnows(alice)).toBe(true);
      const logoutsBefore = await auditCount('logout');
      const response = await logout(
        {
          id_token_hint: await idToken(ids.users.alice),
          post_logout_redirect_uri: BYE,
          state: 'st&te=1',
        },
        alice,
      );
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`${BYE}?state=st%26te%3D1`);
      expect(await apiKnows(alice)).toBe(false);
      expect(await authKnows(alice)).toBe(false);
      const cleared = (response.cookies as { name: string; value: string }[]).map((c) => c.name);
      expect(cleared).toContain(app.sessionCookies.names.session);
      expect(await auditCount('logout')).toBe(logoutsBefore + 1);
    });

    it('adds state to a registered URI that has a query, and omits it when not given', async () => {
      const alice = await signInAs(app, ids.users.alice);
      const withState = await logout(
        {
          id_token_hint: await idToken(ids.users.alice),
          post_logout_redirect_uri: OTHER_BYE,
          state: 'x',
        },
        alice,
      );
      expect(withState.headers.location).toBe(`${OTHER_BYE}&state=x`);
      const bob = await signInAs(app, ids.users.bob);
      const without = await logout(
        { id_token_hint: await idToken(ids.users.bob), post_logout_redirect_uri: BYE },
        bob,
      );
      expect(without.headers.location).toBe(BYE);
    });

    it('returns a native app to the loopback port it sent, as redirect URIs do (RFC 8252 7.3)', async () => {
      const alice = await signInAs(app, ids.users.alice);
      const sent = OTHER_BYE.replace(':8400', ':54123');
      const response = await logout(
        {
          id_token_hint: await idToken(ids.users.alice),
          post_logout_redirect_uri: sent,
          state: 'x',
        },
        alice,
      );
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`${sent}&state=x`);
      expect(await apiKnows(alice)).toBe(false);
    });

    it('shows the logged-out page when no post_logout_redirect_uri is given', async () => {
      const alice = await signInAs(app, ids.users.alice);
      const response = await logout({ id_token_hint: await idToken(ids.users.alice) }, alice);
      expect(response.statusCode).toBe(200);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toContain('id="logged-out"');
      expect(await apiKnows(alice)).toBe(false);
    });

    it('accepts a hint that expired long ago (§2)', async () => {
      const alice = await signInAs(app, ids.users.alice);
      const expired = await idToken(ids.users.alice, 'rp', 30 * 24 * 3600);
      const response = await logout(
        { id_token_hint: expired, post_logout_redirect_uri: BYE },
        alice,
      );
      expect(response.statusCode).toBe(303);
      expect(await apiKnows(alice)).toBe(false);
    });

    it('takes the request by POST as well, without our CSRF token (§2)', async () => {
      const alice = await signInAs(app, ids.users.alice);
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/logout',
        cookies: alice.cookies,
        ...formBody({
          id_token_hint: await idToken(ids.users.alice),
          post_logout_redirect_uri: BYE,
          state: 's',
        }),
      });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`${BYE}?state=s`);
      expect(await apiKnows(alice)).toBe(false);
    });
  });

  describe('without a matching hint: the user confirms', () => {
    it('asks without a hint, keeps the session until the form is sent, then logs out of both', async () => {
      const alice = await signInAs(app, ids.users.alice);
      const page = await logout(
        { client_id: 'rp', post_logout_redirect_uri: BYE, state: 'abc' },
        alice,
      );
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('action="/oauth/logout/confirm"');
      expect(page.body).toContain('Relying Party');
      expect(await apiKnows(alice)).toBe(true);

      const confirmed = await app.inject({
        method: 'POST',
        url: '/oauth/logout/confirm',
        cookies: alice.cookies,
        ...formBody({
          csrf: hiddenField(page.body, 'csrf'),
          client_id: hiddenField(page.body, 'client_id'),
          post_logout_redirect_uri: hiddenField(page.body, 'post_logout_redirect_uri'),
          state: hiddenField(page.body, 'state'),
        }),
      });
      expect(confirmed.statusCode).toBe(303);
      expect(confirmed.headers.location).toBe(`${BYE}?state=abc`);
      expect(await apiKnows(alice)).toBe(false);
    });

    it('asks when the hint names another user, and logs nobody out meanwhile', async () => {
      const alice = await signInAs(app, ids.users.alice);
      const response = await logout(
        { id_token_hint: await idToken(ids.users.bob), post_logout_redirect_uri: BYE },
        alice,
      );
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('action="/oauth/logout/confirm"');
      expect(response.headers.location).toBeUndefined();
      expect(await apiKnows(alice)).toBe(true);
    });

    it('refuses a confirmation without the session token, and keeps the session', async () => {
      const alice = await signInAs(app, ids.users.alice);
      for (const csrf of [null, 'forged']) {
        const response = await app.inject({
          method: 'POST',
          url: '/oauth/logout/confirm',
          cookies: alice.cookies,
          ...formBody({
            client_id: 'rp',
            post_logout_redirect_uri: BYE,
            ...(csrf ? { csrf } : {}),
          }),
        });
        expect(response.statusCode).toBe(403);
        expect(response.headers.location).toBeUndefined();
      }
      expect(await apiKnows(alice)).toBe(true);
    });

    it('checks the returned fields again: a tampered URI is not redirected to', async () => {
      const alice = await signInAs(app, ids.users.alice);
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/logout/confirm',
        cookies: alice.cookies,
        ...formBody({
          csrf: alice.cookies[app.sessionCookies.names.csrf] ?? '',
          client_id: 'rp',
          post_logout_redirect_uri: 'https://attacker.example/',
        }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(await apiKnows(alice)).toBe(true);
    });

    it('escapes the client name and the echoed parameters, and speaks ui_locales', async () => {
      const alice = await signInAs(app, ids.users.alice);
      const page = await app.inject({
        method: 'GET',
        url: `/oauth/logout?${new URLSearchParams({
          client_id: 'hostile',
          state: '"><script>x()</script>',
          ui_locales: 'fr de',
        }).toString()}`,
        cookies: alice.cookies,
        headers: { 'accept-language': 'en' },
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain('<script>');
      expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page.body).toContain('value="&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"');
      expect(page.body).toContain('<html lang="de">');
      expect(page.body).toContain('Abmelden');

      const english = await logout({ ui_locales: 'en-GB' }, alice);
      expect(english.body).toContain('<html lang="en">');
      expect(english.body).toContain('Sign out?');
    });
  });

  describe('requests that are refused with a page, never a redirect', () => {
    async function expectRefused(params: Record<string, string>, code: string) {
      const alice = await signInAs(app, ids.users.alice);
      const response = await logout(params, alice);
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toContain(`<code>${code}</code>`);
      expect(await apiKnows(alice)).toBe(true);
    }

    it('refuses a post_logout_redirect_uri the client did not register', async () => {
      const hint = await idToken(ids.users.alice);
      for (const uri of [
        'https://attacker.example/',
        `${BYE}/`,
        `${BYE}?x=1`,
        BYE.replace('rp.example.org', 'rp.example.org:8443'),
        DEMO_REDIRECT_URI,
        // Loopback: only the port may differ.
        'http://127.0.0.1:54123/bye?from=other',
        'http://localhost:8400/bye?from=app',
        'http://127.0.0.1.evil.example:8400/bye?from=app',
      ]) {
        await expectRefused(
          { id_token_hint: hint, post_logout_redirect_uri: uri, state: 's' },
          'unregistered_post_logout_redirect_uri',
        );
      }
    });

    it('refuses a post_logout_redirect_uri when no client is named', async () => {
      await expectRefused({ post_logout_redirect_uri: BYE }, 'client_required');
    });

    it('refuses an unknown client_id', async () => {
      await expectRefused({ client_id: 'nobody', post_logout_redirect_uri: BYE }, 'unknown_client');
    });

    it('refuses a client_id that is not the audience of the hint (§2)', async () => {
      await expectRefused(
        { id_token_hint: await idToken(ids.users.alice, 'rp'), client_id: 'hostile' },
        'client_id_mismatch',
      );
    });

    it('refuses a hint signed by a key that is not ours, even under our kid and issuer', async () => {
      const { privateKey } = await generateKeyPair('RS256');
      const [ours] = (await servicesOf(app).keys.publicJwks()).keys;
      const now = Math.floor(Date.now() / 1000);
      const forged = await new SignJWT({ sub: String(ids.users.alice), aud: 'rp' })
        .setProtectedHeader({ alg: 'RS256', kid: ours?.kid ?? '' })
        .setIssuer(servicesOf(app).issuer)
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(privateKey);
      await expectRefused(
        { id_token_hint: forged, post_logout_redirect_uri: BYE },
        'invalid_id_token_hint',
      );
      await expectRefused(
        { id_token_hint: 'not.a.jwt', post_logout_redirect_uri: BYE },
        'invalid_id_token_hint',
      );
    });

    // Issue 31, finding 3: any token we sign passed as a hint, and logged out without asking.
    it('refuses an access token or a logout token as the hint, fresh or expired', async () => {
      const now = Math.floor(Date.now() / 1000);
      const sub = String(ids.users.alice);
      const hints: string[] = [];
      for (const iat of [now, now - 30 * 24 * 3600]) {
        // As the token endpoint signs an access token (issue-tokens.ts).
        hints.push(
          await servicesOf(app).keys.signJwt(
            {
              sub,
              aud: 'rp',
              client_id: 'rp',
              scope: 'openid',
              jti: `at-${iat}`,
              iat,
              exp: iat + 3600,
            },
            { typ: 'at+jwt' },
          ),
        );
        // As the back-channel logout signs a logout token (backchannel-logout.ts).
        hints.push(
          await servicesOf(app).keys.signJwt(
            {
              sub,
              aud: 'rp',
              iat,
              exp: iat + 120,
              jti: `lt-${iat}`,
              events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
            },
            { typ: 'logout+jwt' },
          ),
        );
      }
      // Typed as an ID token at the header, yet carrying a logout token's event.
      hints.push(
        await servicesOf(app).keys.signJwt(
          { sub, aud: 'rp', exp: now + 120, events: { 'http://example.org/event': {} } },
          { typ: 'JWT' },
        ),
      );
      for (const hint of hints) {
        await expectRefused(
          { id_token_hint: hint, post_logout_redirect_uri: BYE },
          'invalid_id_token_hint',
        );
      }
    });

    it('still takes an ID token typed JWT at the header', async () => {
      const alice = await signInAs(app, ids.users.alice);
      const now = Math.floor(Date.now() / 1000);
      const hint = await servicesOf(app).keys.signJwt(
        { sub: String(ids.users.alice), aud: 'rp', azp: 'rp', iat: now, exp: now + 3600 },
        { typ: 'JWT' },
      );
      const response = await logout({ id_token_hint: hint, post_logout_redirect_uri: BYE }, alice);
      expect(response.statusCode).toBe(303);
      expect(await apiKnows(alice)).toBe(false);
    });

    it('refuses a hint for a client of ours when the demo clients did not register the URI', async () => {
      await expectRefused(
        {
          id_token_hint: await idToken(ids.users.alice, DemoClientId.public),
          post_logout_redirect_uri: BYE,
        },
        'unregistered_post_logout_redirect_uri',
      );
    });
  });

  it('turns a cross-site POST, which carries no Lax session cookie, into a GET that does', async () => {
    const alice = await signInAs(app, ids.users.alice);
    const fields = {
      id_token_hint: await idToken(ids.users.alice),
      post_logout_redirect_uri: BYE,
      state: 's t',
      unknown: 'dropped',
    };
    const posted = await app.inject({ method: 'POST', url: '/oauth/logout', ...formBody(fields) });
    expect(posted.statusCode).toBe(303);
    const next = new URL(String(posted.headers.location), 'http://auth.test');
    expect(next.pathname).toBe('/oauth/logout');
    expect(next.searchParams.get('unknown')).toBeNull();
    const followed = await app.inject({
      method: 'GET',
      url: `${next.pathname}${next.search}`,
      cookies: alice.cookies,
    });
    expect(followed.statusCode).toBe(303);
    expect(followed.headers.location).toBe(`${BYE}?state=s+t`);
    expect(await apiKnows(alice)).toBe(false);
  });

  it('answers a repeated or overlong parameter with a 400, never a redirect', async () => {
    const alice = await signInAs(app, ids.users.alice);
    for (const url of [
      `/oauth/logout?client_id=rp&post_logout_redirect_uri=${encodeURIComponent(BYE)}&state=a&state=b`,
      `/oauth/logout?client_id=rp&state=${'x'.repeat(1025)}`,
    ]) {
      const response = await app.inject({ method: 'GET', url, cookies: alice.cookies });
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
    }
    expect(await apiKnows(alice)).toBe(true);
  });

  it('without a session, goes straight to the registered URI (there is nothing to end)', async () => {
    const response = await logout({ client_id: 'rp', post_logout_redirect_uri: BYE, state: 'z' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${BYE}?state=z`);
  });
});

import {
  createOAuthClient,
  DEMO_PASSWORD,
  DemoClientId,
  DemoRegionId,
  DemoUserEmail,
} from '@foodshare/domain';
import { DEMO_REDIRECT_URI } from '@foodshare/domain';
import { SessionStore } from '@foodshare/server-kit';
import { type SignedInClient } from '@foodshare/server-kit/test-support';
import type { AuthApp } from '../../app.ts';
import { type AuthorizationCodeGrant, codeKey } from '@foodshare/server-kit/oauth-grants';
import {
  allowOnConsentPage,
  authorizationParams,
  authorizeUrl,
  callbackParams,
  formBody,
  hiddenField,
  pendingRequestId,
  pkcePair,
  setCookies,
} from '../../test-support/authorization-helpers.ts';
import { giveLegacyClientName } from '../../test-support/legacy-client-name.ts';
import { registerTestClient, tokenRequest } from '../../test-support/token-helpers.ts';
import { describe, expect, ids, it, test } from '../../test-support/fixtures.ts';

const ISSUER = 'http://localhost:8080';
test.override('appEnv', { scope: 'file' }, { BASE_URL: ISSUER });

const HOUR_MS = 3600 * 1000;

describe('the authorization endpoint, GET and POST /oauth/authorize', () => {
  let alice: SignedInClient;
  let bob: SignedInClient;
  const NATIVE = 'native-app';
  const NATIVE_LOOPBACK = [
    'http://127.0.0.1/callback',
    'http://[::1]/callback',
    'http://localhost/callback',
  ];
  const WORDPRESS = 'wordpress';
  const WORDPRESS_CALLBACK =
    'https://wp.example/wp-admin/admin-ajax.php?action=openid-connect-authorize';
  const WORDPRESS_SECRET = 'wordpress-secret-of-this-test';

  test.beforeAll(async ({ app, registerClient, services }) => {
    const em = app.orm.em.fork();
    const pepper = services.secrets.clientSecretPepper;
    // Registered for openid only: asking it for more is asking for unregistered scopes.
    await createOAuthClient(
      em,
      {
        clientId: 'openid-only',
        name: 'Only OpenID',
        confidential: false,
        redirectUris: [DEMO_REDIRECT_URI],
        scopes: ['openid'],
        grantTypes: ['authorization_code'],
      },
      { pepper },
    );
    await createOAuthClient(
      em,
      {
        clientId: 'with-query',
        name: 'Redirect with query',
        confidential: false,
        redirectUris: ['http://localhost:9999/cb?tenant=7'],
        scopes: ['openid'],
        grantTypes: ['authorization_code'],
      },
      { pepper },
    );
    // RFC 8252: a native app on loopback, by IP literal or by name, and by its own scheme.
    await registerClient({
      clientId: NATIVE,
      redirectUris: [...NATIVE_LOOPBACK, 'org.example.app:/oauth2redirect'],
      scopes: ['openid', 'profile'],
    });
    // WordPress' openid-connect-generic: client_secret_post, no PKCE, a query in the URI.
    await registerTestClient(
      app,
      { clientId: WORDPRESS, redirectUris: [WORDPRESS_CALLBACK], scopes: ['openid', 'profile'] },
      WORDPRESS_SECRET,
    );
    await createOAuthClient(
      em,
      {
        clientId: 'switched-off',
        name: 'Deactivated',
        confidential: false,
        redirectUris: [DEMO_REDIRECT_URI],
        scopes: ['openid'],
        grantTypes: ['authorization_code'],
        active: false,
      },
      { pepper },
    );
  });

  test.beforeEach(async ({ signIn, services }) => {
    alice = await signIn(ids.users.alice);
    bob = await signIn(ids.users.bob);
    for (const user of [ids.users.alice, ids.users.bob]) {
      for (const client of Object.values(DemoClientId))
        await services.consents.revoke(user, client);
    }
  });

  const get = (
    app: AuthApp,
    url: string,
    signedIn?: SignedInClient,
    headers: Record<string, string> = {},
  ) =>
    app.inject({ method: 'GET', url, headers, ...(signedIn ? { cookies: signedIn.cookies } : {}) });

  async function codeRecord(app: AuthApp, code: string | null): Promise<AuthorizationCodeGrant> {
    const value = await app.kv.get(codeKey(code ?? ''));
    if (value === null) throw new Error('no such code');
    return JSON.parse(value) as AuthorizationCodeGrant;
  }

  /** A session whose password was entered an hour ago. */
  async function signedInAnHourAgo(app: AuthApp, userId: number) {
    const sessions = new SessionStore(app.kv, undefined, () => Date.now() - HOUR_MS);
    const session = await sessions.create(userId, { rememberMe: false });
    return { [app.sessionCookies.names.session]: session.id };
  }

  async function loginFor(app: AuthApp, requestId: string, email: string) {
    const page = await app.inject({ method: 'GET', url: `/login?request=${requestId}` });
    expect(page.statusCode).toBe(200);
    return app.inject({
      method: 'POST',
      url: '/login',
      cookies: setCookies(page),
      ...formBody({
        email,
        password: DEMO_PASSWORD,
        request: hiddenField(page.body, 'request'),
        csrf: hiddenField(page.body, 'csrf'),
      }),
    });
  }

  describe('an unknown client or a redirect URI not registered: the error page, never a redirect', () => {
    function expectErrorPage(response: Awaited<ReturnType<typeof get>>) {
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('Invalid redirect_uri');
    }

    it('refuses an unknown client_id with "Invalid redirect_uri"', async ({ app }) => {
      expectErrorPage(await get(app, authorizeUrl({ client_id: 'no-such-client' })));
    });

    it('refuses a missing client_id', async ({ app }) => {
      expectErrorPage(await get(app, authorizeUrl({ client_id: null })));
    });

    it('refuses a deactivated client', async ({ app }) => {
      expectErrorPage(await get(app, authorizeUrl({ client_id: 'switched-off' })));
    });

    it('refuses a redirect_uri that differs by a trailing slash', async ({ app }) => {
      expectErrorPage(await get(app, authorizeUrl({ redirect_uri: `${DEMO_REDIRECT_URI}/` })));
    });

    it('refuses a redirect_uri that differs by scheme', async ({ app }) => {
      const https = DEMO_REDIRECT_URI.replace('http:', 'https:');
      expectErrorPage(await get(app, authorizeUrl({ redirect_uri: https })));
    });

    it('refuses a redirect_uri that differs by case or extra query', async ({ app }) => {
      for (const uri of [
        DEMO_REDIRECT_URI.replace('callback', 'Callback'),
        `${DEMO_REDIRECT_URI}?x=1`,
      ]) {
        expectErrorPage(await get(app, authorizeUrl({ redirect_uri: uri })));
      }
    });

    it('refuses another port on a host that is not loopback, and another query', async ({
      app,
    }) => {
      for (const uri of [
        WORDPRESS_CALLBACK.replace('wp.example', 'wp.example:8443'),
        WORDPRESS_CALLBACK.replace('wp.example', 'wp.example:443'),
        WORDPRESS_CALLBACK.replace('authorize', 'logout'),
        `${WORDPRESS_CALLBACK}&x=1`,
      ]) {
        expectErrorPage(await get(app, authorizeUrl({ client_id: WORDPRESS, redirect_uri: uri })));
      }
    });

    it('refuses a loopback URI that differs in more than its port', async ({ app }) => {
      for (const uri of [
        'http://127.0.0.1:54123/callback/',
        'http://127.0.0.1:54123/other',
        'http://127.0.0.1:54123/callback?x=1',
        'https://127.0.0.1:54123/callback',
        'http://127.0.0.2:54123/callback',
        'http://127.0.0.1.evil.com:54123/callback',
        'http://localhost.evil.com/callback',
        'http://user@127.0.0.1:54123/callback',
        'http://127.0.0.1:54123@evil.com/callback',
        'http://127.0.0.1:99999/callback',
        'org.example.app:/oauth2redirect/',
        'org.example.app://oauth2redirect',
      ]) {
        expectErrorPage(await get(app, authorizeUrl({ client_id: NATIVE, redirect_uri: uri })));
      }
    });

    it('refuses a missing redirect_uri', async ({ app }) => {
      expectErrorPage(await get(app, authorizeUrl({ redirect_uri: null })));
    });

    it('refuses a repeated redirect_uri', async ({ app }) => {
      expectErrorPage(await get(app, `${authorizeUrl()}&redirect_uri=${DEMO_REDIRECT_URI}`));
    });

    it('refuses a redirect URI registered by another client', async ({ app }) => {
      expectErrorPage(
        await get(
          app,
          authorizeUrl({
            client_id: 'openid-only',
            redirect_uri: 'http://localhost:9999/cb?tenant=7',
          }),
        ),
      );
    });

    it('shows the error page in German with Accept-Language de, and forbids framing', async ({
      app,
    }) => {
      const response = await get(app, authorizeUrl({ client_id: 'nope' }), undefined, {
        'accept-language': 'de-DE,de;q=0.9,en;q=0.5',
      });
      expectErrorPage(response);
      expect(response.headers['content-language']).toBe('de');
      expect(response.body).toContain('Anmeldung nicht möglich');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-frame-options']).toBe('DENY');
    });
  });

  describe('all other errors redirect to the client with error, error_description, state and iss', () => {
    it('redirects an error with exactly error, error_description, state and iss', async ({
      app,
    }) => {
      const response = await get(app, authorizeUrl({ response_type: 'token' }), alice);
      expect(response.statusCode).toBe(302);
      const params = callbackParams(response);
      expect([...params.keys()].sort()).toEqual(['error', 'error_description', 'iss', 'state']);
      expect(params.get('error')).toBe('unsupported_response_type');
      expect(params.get('state')).toBe('state-123');
      expect(params.get('iss')).toBe(ISSUER);
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('leaves state out of an error redirect when the request had none', async ({ app }) => {
      const params = callbackParams(
        await get(app, authorizeUrl({ response_type: null, state: null })),
      );
      expect(params.get('error')).toBe('invalid_request');
      expect(params.has('state')).toBe(false);
      expect(params.get('iss')).toBe(ISSUER);
    });

    it('keeps the query of a registered redirect URI and adds the error to it', async ({ app }) => {
      const response = await get(
        app,
        authorizeUrl({
          client_id: 'with-query',
          redirect_uri: 'http://localhost:9999/cb?tenant=7',
          scope: 'email',
        }),
      );
      const location = String(response.headers.location);
      expect(location.startsWith('http://localhost:9999/cb?tenant=7&')).toBe(true);
      expect(new URL(location).searchParams.get('error')).toBe('invalid_scope');
    });

    // [requirement, parameters, error, description (exact or pattern)]
    const refusals: [string, Record<string, string | null>, string, string | RegExp][] = [
      [
        'response_type other than code: unsupported_response_type',
        { response_type: 'token' },
        'unsupported_response_type',
        /code/,
      ],
      [
        'a missing response_type: invalid_request',
        { response_type: null },
        'invalid_request',
        /response_type/,
      ],
      [
        'a scope without openid: invalid_scope',
        { scope: 'profile email' },
        'invalid_scope',
        /openid/,
      ],
      ['a missing scope: invalid_scope', { scope: null }, 'invalid_scope', /openid/],
      [
        'an unknown scope: invalid_scope',
        { scope: 'openid admin' },
        'invalid_scope',
        /Unknown scope/,
      ],
      [
        'scope names are case-sensitive',
        { scope: 'openid Profile' },
        'invalid_scope',
        /Unknown scope/,
      ],
      [
        'a public client without code_challenge: "Code challenge required"',
        { code_challenge: null, code_challenge_method: null },
        'invalid_request',
        'Code challenge required',
      ],
      [
        'PKCE plain is refused',
        { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' },
        'invalid_request',
        /S256/,
      ],
      [
        'a challenge without method (plain by default) is refused',
        { code_challenge_method: null },
        'invalid_request',
        /S256/,
      ],
      [
        'a challenge shorter than 43 characters is refused',
        { code_challenge: 'a'.repeat(42) },
        'invalid_request',
        /43 to 128/,
      ],
      [
        'a challenge longer than 128 characters is refused',
        { code_challenge: 'a'.repeat(129) },
        'invalid_request',
        /43 to 128/,
      ],
      [
        'a challenge with characters outside [A-Za-z0-9-._~] is refused',
        { code_challenge: `${'a'.repeat(42)}+` },
        'invalid_request',
        /43 to 128/,
      ],
      [
        'prompt=none combined with login',
        { prompt: 'none login' },
        'invalid_request',
        /prompt=none/,
      ],
      ['an unknown prompt value', { prompt: 'everything' }, 'invalid_request', /prompt/],
      ['a prompt value not advertised', { prompt: 'select_account' }, 'invalid_request', /prompt/],
      ['a negative max_age', { max_age: '-1' }, 'invalid_request', /max_age/],
      ['a non-numeric max_age', { max_age: 'soon' }, 'invalid_request', /max_age/],
      ['a request object', { request: 'eyJhbGciOiJub25lIn0.e30.' }, 'invalid_request', /request/],
      [
        'a response_mode other than query',
        { response_mode: 'fragment' },
        'invalid_request',
        /response_mode/,
      ],
    ];

    it.for(refusals)('%s', async ([_name, overrides, error, description], { app }) => {
      const response = await get(app, authorizeUrl(overrides), alice);
      expect(response.statusCode).toBe(302);
      const params = callbackParams(response);
      expect(params.get('error')).toBe(error);
      if (typeof description === 'string')
        expect(params.get('error_description')).toBe(description);
      else expect(params.get('error_description')).toMatch(description);
      expect(params.get('state')).toBe('state-123');
      expect(params.get('iss')).toBe(ISSUER);
      expect(params.has('code')).toBe(false);
    });

    it('refuses a scope the client is not registered for with invalid_scope', async ({ app }) => {
      const params = callbackParams(
        await get(app, authorizeUrl({ client_id: 'openid-only', scope: 'openid email' }), alice),
      );
      expect(params.get('error')).toBe('invalid_scope');
      expect(params.get('error_description')).toMatch(/not registered for scope email/);
    });

    it('refuses a repeated parameter with invalid_request', async ({ app }) => {
      const params = callbackParams(await get(app, `${authorizeUrl()}&scope=openid`, alice));
      expect(params.get('error')).toBe('invalid_request');
      expect(params.get('error_description')).toMatch(/scope must not be repeated/);
    });

    it('lets a confidential client omit PKCE, but not send a method without a challenge', async ({
      app,
    }) => {
      const params = callbackParams(
        await get(
          app,
          authorizeUrl({
            client_id: DemoClientId.confidential,
            code_challenge: null,
            code_challenge_method: 'S256',
          }),
          alice,
        ),
      );
      expect(params.get('error')).toBe('invalid_request');
      const withoutPkce = await get(
        app,
        authorizeUrl({
          client_id: DemoClientId.confidential,
          code_challenge: null,
          code_challenge_method: null,
        }),
        alice,
      );
      expect(String(withoutPkce.headers.location)).toMatch(/^\/oauth\/consent\?request=/);
    });
  });

  describe('success redirects carry code, state and iss', () => {
    it('issues a code bound to client, user, redirect URI, scopes, challenge, nonce and auth_time', async ({
      app,
      services,
    }) => {
      await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
      const params = authorizationParams({ nonce: 'n-0S6_WzA2Mj' });
      const response = await get(
        app,
        `/oauth/authorize?${new URLSearchParams(params).toString()}`,
        alice,
      );
      expect(response.statusCode).toBe(302);
      const callback = callbackParams(response);
      expect([...callback.keys()].sort()).toEqual(['code', 'iss', 'state']);
      expect(callback.get('state')).toBe('state-123');
      expect(callback.get('iss')).toBe(ISSUER);
      const record = await codeRecord(app, callback.get('code'));
      const session = await app.sessions.find(alice.cookies.fs_session ?? '');
      expect(record).toMatchObject({
        clientId: DemoClientId.public,
        userId: ids.users.alice,
        redirectUri: DEMO_REDIRECT_URI,
        scopes: ['openid', 'profile'],
        codeChallenge: params.code_challenge,
        nonce: 'n-0S6_WzA2Mj',
        authTime: session?.authTime,
      });
    });

    it('ignores unknown parameters', async ({ app, services }) => {
      await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
      const url = `${authorizeUrl()}&foo=bar&ui_locales=fr&claims_locales=de&display=page`;
      expect(callbackParams(await get(app, url, alice)).has('code')).toBe(true);
    });

    it('answers a form-posted request like a GET, with 303 and without the CSRF header', async ({
      app,
      services,
    }) => {
      await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/authorize',
        cookies: alice.cookies,
        ...formBody(authorizationParams()),
      });
      expect(response.statusCode).toBe(303);
      const callback = callbackParams(response);
      expect(callback.get('state')).toBe('state-123');
      expect(callback.has('code')).toBe(true);
    });

    it('redirects a form-posted error with 303 as well', async ({ app }) => {
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/authorize',
        ...formBody(authorizationParams({ code_challenge: null, code_challenge_method: null })),
      });
      expect(response.statusCode).toBe(303);
      expect(callbackParams(response).get('error_description')).toBe('Code challenge required');
    });

    it('shows the error page for a form-posted request of an unknown client', async ({ app }) => {
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/authorize',
        ...formBody(authorizationParams({ client_id: 'nobody' })),
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
    });
  });

  describe('native apps (RFC 8252): any port on a loopback host', () => {
    it.for(
      NATIVE_LOOPBACK.map((uri) => [uri, uri.replace('/callback', ':54123/callback')] as const),
    )(
      'registered %s: %s goes through login and consent to a code at the port sent',
      async ([registered, sent], { app }) => {
        const { verifier, challenge } = pkcePair();
        const start = await get(
          app,
          authorizeUrl({ client_id: NATIVE, redirect_uri: sent, code_challenge: challenge }),
        );
        expect(start.statusCode).toBe(302);
        expect(String(start.headers.location)).toMatch(/^\/login\?request=/);
        const login = await loginFor(app, pendingRequestId(start), DemoUserEmail.alice);
        expect(login.statusCode).toBe(303);
        const decided = await allowOnConsentPage(app, setCookies(login), login);
        expect(decided.statusCode).toBe(303);
        const location = String(decided.headers.location);
        const code = new URL(location).searchParams.get('code') ?? '';
        expect(location).toBe(
          `${sent}?code=${code}&state=state-123&iss=${encodeURIComponent(ISSUER)}`,
        );
        expect(await codeRecord(app, code)).toMatchObject({ clientId: NATIVE, redirectUri: sent });

        // RFC 6749 4.1.3: the code goes with the URI it was sent to, not the registered one,
        // nor the same URI on yet another port.
        const exchange = (app: AuthApp, redirectUri: string) =>
          tokenRequest(app, {
            grant_type: 'authorization_code',
            code,
            redirect_uri: redirectUri,
            code_verifier: verifier,
            client_id: NATIVE,
          });
        for (const other of [registered, sent.replace('54123', '54124')]) {
          const refused = await exchange(app, other);
          expect(refused.statusCode).toBe(400);
          expect(refused.json()).toEqual({
            error: 'invalid_grant',
            error_description: 'redirect_uri differs from the authorization request',
          });
        }
        const tokens = await exchange(app, sent);
        expect(tokens.statusCode, tokens.body).toBe(200);
        expect(tokens.json()).toMatchObject({ token_type: 'Bearer' });
      },
    );

    it('matches a loopback URI registered with a port on any other port', async ({
      app,
      registerClient,
      services,
    }) => {
      await registerClient({
        clientId: 'native-with-port',
        redirectUris: ['http://127.0.0.1:8400/callback'],
        scopes: ['openid', 'profile'],
      });
      await services.consents.remember(ids.users.alice, 'native-with-port', ['openid', 'profile']);
      for (const sent of ['http://127.0.0.1:8400/callback', 'http://127.0.0.1:61000/callback']) {
        const response = await get(
          app,
          authorizeUrl({ client_id: 'native-with-port', redirect_uri: sent }),
          alice,
        );
        expect(response.statusCode).toBe(302);
        expect(String(response.headers.location)).toMatch(new RegExp(`^${sent}\\?code=`));
      }
    });

    it('sends errors found after the redirect URI check to the port sent', async ({ app }) => {
      const sent = 'http://127.0.0.1:54123/callback';
      for (const [overrides, error, description] of [
        [{ scope: 'openid email' }, 'invalid_scope', /email/],
        [
          { code_challenge: null, code_challenge_method: null },
          'invalid_request',
          /^Code challenge required$/,
        ],
        [{ response_type: 'token' }, 'unsupported_response_type', /./],
      ] as const) {
        const response = await get(
          app,
          authorizeUrl({ client_id: NATIVE, redirect_uri: sent, ...overrides }),
        );
        expect(response.statusCode).toBe(302);
        const location = new URL(String(response.headers.location));
        expect(`${location.origin}${location.pathname}`).toBe(sent);
        expect(location.searchParams.get('error')).toBe(error);
        expect(location.searchParams.get('error_description')).toMatch(description);
        expect(location.searchParams.get('state')).toBe('state-123');
      }
    });

    it('returns a code to the app by its own scheme (RFC 8252 7.1)', async ({ app, services }) => {
      await services.consents.remember(ids.users.alice, NATIVE, ['openid', 'profile']);
      const response = await get(
        app,
        authorizeUrl({ client_id: NATIVE, redirect_uri: 'org.example.app:/oauth2redirect' }),
        alice,
      );
      expect(response.statusCode).toBe(302);
      expect(String(response.headers.location)).toMatch(
        /^org\.example\.app:\/oauth2redirect\?code=[\w-]+&state=state-123&iss=/,
      );
    });
  });

  describe('a redirect URI with a query (WordPress openid-connect-generic)', () => {
    it('appends code, state and iss with &, and takes the code back with that URI only', async ({
      app,
      services,
    }) => {
      await services.consents.remember(ids.users.alice, WORDPRESS, ['openid', 'profile']);
      const response = await get(
        app,
        authorizeUrl({
          client_id: WORDPRESS,
          redirect_uri: WORDPRESS_CALLBACK,
          code_challenge: null,
          code_challenge_method: null,
          state: 'wp-state',
          nonce: 'wp-nonce',
        }),
        alice,
      );
      expect(response.statusCode).toBe(302);
      const location = String(response.headers.location);
      const code = new URL(location).searchParams.get('code') ?? '';
      expect(location).toBe(
        `${WORDPRESS_CALLBACK}&code=${code}&state=wp-state&iss=${encodeURIComponent(ISSUER)}`,
      );

      const exchange = (app: AuthApp, redirectUri: string) =>
        tokenRequest(app, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: WORDPRESS,
          client_secret: WORDPRESS_SECRET,
        });
      for (const other of [
        WORDPRESS_CALLBACK.replace('authorize', 'logout'),
        WORDPRESS_CALLBACK.split('?')[0]!,
      ]) {
        const refused = await exchange(app, other);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({ error: 'invalid_grant' });
      }
      const tokens = await exchange(app, WORDPRESS_CALLBACK);
      expect(tokens.statusCode, tokens.body).toBe(200);
      expect(tokens.json()).toMatchObject({ token_type: 'Bearer' });
    });
  });

  describe('login', () => {
    it('not logged in: the login page, then back to the same authorization request', async ({
      app,
    }) => {
      const start = await get(app, authorizeUrl({ state: 'come-back' }));
      expect(start.statusCode).toBe(302);
      expect(String(start.headers.location)).toMatch(/^\/login\?request=/);
      const requestId = pendingRequestId(start);
      const login = await loginFor(app, requestId, DemoUserEmail.alice);
      expect(login.statusCode).toBe(303);
      expect(login.headers.location).toBe(`/oauth/consent?request=${requestId}`);
      const decided = await allowOnConsentPage(app, setCookies(login), login);
      expect(decided.statusCode).toBe(303);
      const callback = callbackParams(decided);
      expect(callback.get('state')).toBe('come-back');
      expect((await codeRecord(app, callback.get('code'))).userId).toBe(ids.users.alice);
    });

    it('prompt=none without a session: login_required, no page', async ({ app }) => {
      const params = callbackParams(await get(app, authorizeUrl({ prompt: 'none' })));
      expect(params.get('error')).toBe('login_required');
      expect(params.get('state')).toBe('state-123');
      expect(params.get('iss')).toBe(ISSUER);
    });

    it('prompt=login shows the login page although logged in, then issues a new auth_time', async ({
      app,
      services,
    }) => {
      const cookies = await signedInAnHourAgo(app, ids.users.alice);
      await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
      const start = await app.inject({
        method: 'GET',
        url: authorizeUrl({ prompt: 'login' }),
        cookies,
      });
      expect(String(start.headers.location)).toMatch(/^\/login\?request=/);
      const before = Math.floor(Date.now() / 1000);
      const login = await loginFor(app, pendingRequestId(start), DemoUserEmail.alice);
      expect(login.statusCode).toBe(303);
      const record = await codeRecord(app, callbackParams(login).get('code'));
      expect(record.authTime).toBeGreaterThanOrEqual(before);
    });

    it('an exceeded max_age forces a fresh login', async ({ app, services }) => {
      const cookies = await signedInAnHourAgo(app, ids.users.alice);
      await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
      const exceeded = await app.inject({
        method: 'GET',
        url: authorizeUrl({ max_age: '60' }),
        cookies,
      });
      expect(String(exceeded.headers.location)).toMatch(/^\/login\?request=/);
      const before = Math.floor(Date.now() / 1000);
      const login = await loginFor(app, pendingRequestId(exceeded), DemoUserEmail.alice);
      expect(
        (await codeRecord(app, callbackParams(login).get('code'))).authTime,
      ).toBeGreaterThanOrEqual(before);
    });

    it('a max_age not yet exceeded needs no login', async ({ app, services }) => {
      const cookies = await signedInAnHourAgo(app, ids.users.alice);
      await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
      const response = await app.inject({
        method: 'GET',
        url: authorizeUrl({ max_age: '7200' }),
        cookies,
      });
      const record = await codeRecord(app, callbackParams(response).get('code'));
      expect(record.authTime).toBeLessThan(Math.floor(Date.now() / 1000) - 3000);
    });

    it('max_age=0 asks for a login like prompt=login, and the login ends the round trip', async ({
      app,
      services,
    }) => {
      await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
      const start = await get(app, authorizeUrl({ max_age: '0' }), alice);
      expect(String(start.headers.location)).toMatch(/^\/login\?request=/);
      const login = await loginFor(app, pendingRequestId(start), DemoUserEmail.alice);
      expect(callbackParams(login).has('code')).toBe(true);
    });

    it('prompt=none with an exceeded max_age: login_required', async ({ app, services }) => {
      const cookies = await signedInAnHourAgo(app, ids.users.alice);
      await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
      const response = await app.inject({
        method: 'GET',
        url: authorizeUrl({ prompt: 'none', max_age: '60' }),
        cookies,
      });
      expect(callbackParams(response).get('error')).toBe('login_required');
    });
  });

  describe('consent', () => {
    it('prompt=none without remembered consent: consent_required, no page', async ({ app }) => {
      const params = callbackParams(await get(app, authorizeUrl({ prompt: 'none' }), alice));
      expect(params.get('error')).toBe('consent_required');
      expect(params.get('state')).toBe('state-123');
    });

    it('prompt=none with remembered consent: a code without any page', async ({
      app,
      services,
    }) => {
      await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
      expect(
        callbackParams(await get(app, authorizeUrl({ prompt: 'none' }), alice)).has('code'),
      ).toBe(true);
    });

    it('a remembered consent skips the screen the second time', async ({ app }) => {
      const first = await get(app, authorizeUrl(), alice);
      expect(String(first.headers.location)).toMatch(/^\/oauth\/consent\?request=/);
      const decided = await allowOnConsentPage(app, alice.cookies, first, { remember: true });
      expect(callbackParams(decided).has('code')).toBe(true);
      const second = await get(app, authorizeUrl(), alice);
      expect(callbackParams(second).has('code')).toBe(true);
      // Fewer scopes are covered too.
      const fewer = await get(app, authorizeUrl({ scope: 'openid' }), alice);
      expect(callbackParams(fewer).has('code')).toBe(true);
    });

    it('a consent given without "remember" is asked for again', async ({ app }) => {
      const first = await get(app, authorizeUrl(), alice);
      expect(callbackParams(await allowOnConsentPage(app, alice.cookies, first)).has('code')).toBe(
        true,
      );
      const second = await get(app, authorizeUrl(), alice);
      expect(String(second.headers.location)).toMatch(/^\/oauth\/consent\?request=/);
    });

    it('more scopes than remembered show the screen again', async ({ app, services }) => {
      await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
      const response = await get(app, authorizeUrl({ scope: 'openid profile email' }), alice);
      expect(String(response.headers.location)).toMatch(/^\/oauth\/consent\?request=/);
    });

    it('prompt=consent shows the screen despite a remembered consent', async ({
      app,
      services,
    }) => {
      await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
      const response = await get(app, authorizeUrl({ prompt: 'consent' }), alice);
      expect(String(response.headers.location)).toMatch(/^\/oauth\/consent\?request=/);
      const page = await get(app, String(response.headers.location), alice);
      expect(page.statusCode).toBe(200);
    });

    it('a revoked consent shows the screen again', async ({ app, services }) => {
      await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
      await services.consents.revoke(ids.users.alice, DemoClientId.public);
      const response = await get(app, authorizeUrl(), alice);
      expect(String(response.headers.location)).toMatch(/^\/oauth\/consent\?request=/);
    });
  });

  describe('region gating', () => {
    const regional = { client_id: DemoClientId.regional };

    /** The page's one link back to the client, as a browser follows it. */
    function backToClient(page: Awaited<ReturnType<typeof get>>): URL {
      const href = /<a class="button" id="back-to-client" href="([^"]*)"/.exec(page.body)?.[1];
      if (!href) throw new Error(`no link back to the client in:\n${page.body}`);
      return new URL(href.replaceAll('&amp;', '&'));
    }

    function expectRefusalPage(page: Awaited<ReturnType<typeof get>>) {
      expect(page.statusCode).toBe(403);
      expect(page.headers.location).toBeUndefined();
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.body).not.toMatch(/<script|<form/i);
    }

    it('shows bob (Beispieldorf only) why demo-regional refuses him, naming it, with a way back', async ({
      app,
    }) => {
      const page = await get(app, authorizeUrl(regional), bob, { 'accept-language': 'en' });
      expectRefusalPage(page);
      expect(page.body).toContain('<h1>User not in required regions</h1>');
      expect(page.body).toContain('<strong>Demo-App Musterstadt</strong> is open only');
      expect(page.body).toContain('Back to Demo-App Musterstadt');

      // The way back is the RFC 6749 4.1.2.1 error response, with state and iss (RFC 9207).
      const back = backToClient(page);
      expect(`${back.origin}${back.pathname}`).toBe(DEMO_REDIRECT_URI);
      expect(Object.fromEntries(back.searchParams)).toEqual({
        error: 'access_denied',
        error_description: 'User not in required regions',
        state: 'state-123',
        iss: ISSUER,
      });
      // No code was issued for him.
      expect(back.searchParams.has('code')).toBe(false);
    });

    it('says it in German for a German browser', async ({ app }) => {
      const page = await get(app, authorizeUrl(regional), bob, {
        'accept-language': 'de-DE,de;q=0.9',
      });
      expectRefusalPage(page);
      expect(page.headers['content-language']).toBe('de');
      expect(page.body).toContain('<h1>Nicht in den erforderlichen Bezirken</h1>');
      expect(page.body).toContain('<strong>Demo-App Musterstadt</strong> steht nur Mitgliedern');
      expect(page.body).toContain('Zurück zu Demo-App Musterstadt');
      expect(page.body).toContain('<code>User not in required regions</code>');
      expect(backToClient(page).searchParams.get('error')).toBe('access_denied');
    });

    it('escapes the client’s name, which whoever registered it chose', async ({
      app,
      services,
    }) => {
      await createOAuthClient(
        app.orm.em.fork(),
        {
          clientId: 'regional-markup',
          name: 'Evil',
          confidential: false,
          redirectUris: [DEMO_REDIRECT_URI],
          scopes: ['openid', 'profile'],
          grantTypes: ['authorization_code'],
          requiredRegionIds: [DemoRegionId.Musterstadt],
        },
        { pepper: services.secrets.clientSecretPepper },
      );
      await giveLegacyClientName(
        app.orm.em.fork(),
        'regional-markup',
        '<img src=x onerror=alert(1)> "Evil" & Co',
      );
      const page = await get(app, authorizeUrl({ client_id: 'regional-markup' }), bob);
      expectRefusalPage(page);
      expect(page.body).not.toContain('<img');
      expect(page.body).toContain(
        '<strong>&lt;img src=x onerror=alert(1)&gt; &quot;Evil&quot; &amp; Co</strong>',
      );
      expect(page.body).toContain('Back to &lt;img src=x onerror=alert(1)&gt; &quot;Evil&quot;');
    });

    it('shows the page to bob right after the login page, instead of the consent screen', async ({
      app,
    }) => {
      const start = await get(app, authorizeUrl(regional));
      const login = await loginFor(app, pendingRequestId(start), DemoUserEmail.bob);
      expectRefusalPage(login);
      expect(login.body).toContain('User not in required regions');
      expect(backToClient(login).searchParams.get('error_description')).toBe(
        'User not in required regions',
      );
    });

    it('refuses bob even with a remembered consent and prompt=none, by redirect: no page', async ({
      app,
      services,
    }) => {
      await services.consents.remember(ids.users.bob, DemoClientId.regional, ['openid', 'profile']);
      const response = await get(app, authorizeUrl({ ...regional, prompt: 'none' }), bob);
      expect(response.statusCode).toBe(302);
      const params = callbackParams(response);
      expect(params.get('error')).toBe('access_denied');
      expect(params.get('error_description')).toBe('User not in required regions');
      expect(params.get('state')).toBe('state-123');
      expect(params.get('iss')).toBe(ISSUER);
      expect(params.has('code')).toBe(false);
    });

    it('admits alice (Musterstadt member) at demo-regional', async ({ app }) => {
      const response = await get(app, authorizeUrl(regional), alice);
      expect(String(response.headers.location)).toMatch(/^\/oauth\/consent\?request=/);
      const decided = await allowOnConsentPage(app, alice.cookies, response);
      expect(callbackParams(decided).has('code')).toBe(true);
    });

    it('admits everyone at a client without required regions', async ({ app, services }) => {
      await services.consents.remember(ids.users.bob, DemoClientId.public, ['openid', 'profile']);
      expect(callbackParams(await get(app, authorizeUrl(), bob)).has('code')).toBe(true);
    });
  });
});

import { DEMO_REDIRECT_URI } from '@foodshare/domain';
import type { AuthApp } from '../../app.ts';
import { clientBudgetKeys } from '../../clients/client-endpoint.ts';
import { PUSHED_REQUEST_REQUIRED } from '../../authorization/authorization-request.ts';
import {
  authorizationParams,
  authorizeUrl,
  callbackParams,
} from '../../test-support/authorization-helpers.ts';
import {
  basicAuth,
  confidentialBasic,
  DEMO_CLIENT_SECRET,
  DemoClientId,
  postForm,
} from '../../test-support/token-helpers.ts';
import { describe, expect, ids, it, test } from '../../test-support/fixtures.ts';

const REQUEST_URI = /^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/;

describe('POST /oauth/par (RFC 9126) and /oauth/authorize with request_uri', () => {
  test.beforeAll(async ({ registerClient }) => {
    await registerClient({
      clientId: 'par-required',
      requirePushedAuthorizationRequests: true,
    });
    await registerClient({ clientId: 'par-busy' });
    await registerClient({
      clientId: 'par-native',
      redirectUris: ['http://127.0.0.1/callback'],
    });
  });

  const push = (
    app: AuthApp,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) => postForm(app, '/oauth/par', fields, headers);

  const authorizeWith = (
    app: AuthApp,
    requestUri: string,
    clientId: string = DemoClientId.public,
  ) =>
    app.inject({
      method: 'GET',
      url: `/oauth/authorize?${new URLSearchParams({ client_id: clientId, request_uri: requestUri }).toString()}`,
    });

  async function pushedUri(app: AuthApp, fields: Record<string, string> = authorizationParams()) {
    const response = await push(app, fields);
    expect(response.statusCode).toBe(201);
    return response.json<{ request_uri: string }>().request_uri;
  }

  it('answers 201 with a one-minute request_uri, not cacheable, for a public client', async ({
    app,
  }) => {
    const response = await push(app, authorizationParams());
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    // A browser app pushes from its own origin, without cookies.
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const body = response.json<{ request_uri: string; expires_in: number }>();
    expect(body.request_uri).toMatch(REQUEST_URI);
    expect(body.expires_in).toBe(60);
  });

  it('authenticates a confidential client as the token endpoint does', async ({ app }) => {
    const fields = authorizationParams({ client_id: null });
    const ok = await push(app, fields, { authorization: confidentialBasic() });
    expect(ok.statusCode).toBe(201);
    const posted = await push(app, {
      ...fields,
      client_id: DemoClientId.confidential,
      client_secret: DEMO_CLIENT_SECRET,
    });
    expect(posted.statusCode).toBe(201);
    const wrong = await push(app, fields, {
      authorization: basicAuth(DemoClientId.confidential, 'wrong'),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: 'invalid_client' });
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic/);
    const none = await push(app, { ...fields, client_id: DemoClientId.confidential });
    expect(none.statusCode).toBe(401);
  });

  it.for([
    [
      'an unregistered redirect_uri',
      { redirect_uri: 'https://evil.example/cb' },
      'invalid_request',
    ],
    ['no redirect_uri', { redirect_uri: null }, 'invalid_request'],
    ['a scope without openid', { scope: 'profile' }, 'invalid_scope'],
    ['no PKCE challenge of a public client', { code_challenge: null }, 'invalid_request'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['a response type other than code', { response_type: 'token' }, 'unsupported_response_type'],
    ['a request_uri of its own', { request_uri: 'urn:x' }, 'invalid_request'],
  ] as const)(
    'validates as /oauth/authorize does, answering JSON: %s',
    async ([_name, overrides, error], { app }) => {
      const response = await push(app, authorizationParams(overrides));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error });
      expect(response.headers.location).toBeUndefined();
    },
  );

  it('refuses a body that is not form-encoded, and a parameter sent twice', async ({ app }) => {
    const json = await app.inject({
      method: 'POST',
      url: '/oauth/par',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(authorizationParams()),
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ error: 'invalid_request' });
    const twice = await app.inject({
      method: 'POST',
      url: '/oauth/par',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${new URLSearchParams(authorizationParams()).toString()}&client_id=other`,
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('lets /oauth/authorize take the pushed request, once, and ignore parameters beside it', async ({
    app,
    signIn,
    services,
  }) => {
    const uri = await pushedUri(app, authorizationParams({ state: 'pushed-state' }));
    const alice = await signIn(ids.users.alice);
    await services.consents.revoke(ids.users.alice, DemoClientId.public);
    const first = await app.inject({
      method: 'GET',
      url: `/oauth/authorize?${new URLSearchParams({
        client_id: DemoClientId.public,
        request_uri: uri,
        state: 'ignored',
        scope: 'openid email',
      }).toString()}`,
      cookies: alice.cookies,
    });
    // To the consent page, with the pushed request's scope.
    expect(String(first.headers.location)).toMatch(/^\/oauth\/consent\?request=/);
    const consent = await app.inject({
      method: 'GET',
      url: String(first.headers.location),
      cookies: alice.cookies,
    });
    expect(consent.body).toContain('Your name, profile picture and language');
    expect(consent.body).not.toContain('Your email address');
    const again = await authorizeWith(app, uri);
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('Request expired');
  });

  it('takes a loopback redirect URI on any port, and sends the code there (RFC 8252 7.3)', async ({
    app,
    signIn,
    services,
  }) => {
    const sent = 'http://127.0.0.1:54123/callback';
    const params = authorizationParams({ client_id: 'par-native', redirect_uri: sent });
    const refused = await push(app, { ...params, redirect_uri: 'http://127.0.0.1:54123/other' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'invalid_request',
      error_description: 'Invalid redirect_uri',
    });
    const uri = await pushedUri(app, params);
    const alice = await signIn(ids.users.alice);
    await services.consents.remember(ids.users.alice, 'par-native', ['openid', 'profile']);
    const response = await app.inject({
      method: 'GET',
      url: `/oauth/authorize?${new URLSearchParams({ client_id: 'par-native', request_uri: uri }).toString()}`,
      cookies: alice.cookies,
    });
    expect(response.statusCode).toBe(302);
    expect(String(response.headers.location)).toMatch(
      /^http:\/\/127\.0\.0\.1:54123\/callback\?code=[\w-]+&state=state-123&iss=/,
    );
  });

  it('refuses a request_uri that is unknown, or presented with another client_id', async ({
    app,
  }) => {
    const unknown = await authorizeWith(app, 'urn:ietf:params:oauth:request_uri:nope');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.headers.location).toBeUndefined();
    const uri = await pushedUri(app);
    const other = await authorizeWith(app, uri, DemoClientId.confidential);
    expect(other.statusCode).toBe(400);
    expect(other.headers.location).toBeUndefined();
    // Burnt by the wrong client_id: not left for more guesses.
    expect((await authorizeWith(app, uri)).statusCode).toBe(400);
  });

  it('makes a client registered for it use PAR: a direct request is an error redirect', async ({
    app,
  }) => {
    const direct = await app.inject({
      method: 'GET',
      url: authorizeUrl({ client_id: 'par-required' }),
    });
    const params = callbackParams(direct);
    expect(params.get('error')).toBe('invalid_request');
    expect(params.get('error_description')).toBe(PUSHED_REQUEST_REQUIRED);
    expect(params.get('state')).toBe('state-123');
    const uri = await pushedUri(app, authorizationParams({ client_id: 'par-required' }));
    const pushed = await authorizeWith(app, uri, 'par-required');
    expect(pushed.statusCode).toBe(302);
    expect(String(pushed.headers.location)).toMatch(/^\/login\?request=/);
  });

  it('keeps a per-client budget like the token endpoint, apart from the token budget', async ({
    app,
    services,
  }) => {
    const limit = services.config.TOKEN_REQUESTS_PER_PUBLIC_CLIENT_AND_IP_PER_MINUTE;
    await app.kv.increment(
      clientBudgetKeys.publicClientPushedAtAddress('par-busy', '127.0.0.1'),
      60_000,
      limit,
    );
    const response = await push(app, authorizationParams({ client_id: 'par-busy' }));
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ error: 'temporarily_unavailable' });
    expect(response.headers['retry-after']).toMatch(/^\d+$/);
    expect(
      (await app.kv.get(clientBudgetKeys.publicClientAtAddress('par-busy', '127.0.0.1'))) ?? '0',
    ).toBe('0');
  });

  it('stores no client secret and no unknown parameter with the request', async ({
    app,
    services,
  }) => {
    const response = await push(
      app,
      { ...authorizationParams({ client_id: null }), extra: 'x'.repeat(100) },
      { authorization: confidentialBasic() },
    );
    expect(response.statusCode).toBe(201);
    const uri = response.json<{ request_uri: string }>().request_uri;
    const taken = await services.pushedRequests.take(uri);
    expect(taken?.clientId).toBe(DemoClientId.confidential);
    expect(Object.keys(taken?.params ?? {}).sort()).toEqual(
      [
        'client_id',
        'code_challenge',
        'code_challenge_method',
        'redirect_uri',
        'response_type',
        'scope',
        'state',
      ].sort(),
    );
    expect(taken?.params.redirect_uri).toBe(DEMO_REDIRECT_URI);
  });
});

import { servicesOf } from '../../test-support/build-test-app.ts';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuthApp } from '../../app.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';
import { clientBudgetKeys } from '../../clients/client-endpoint.ts';
import {
  basicAuth,
  confidentialBasic,
  DEMO_CLIENT_SECRET,
  DEMO_REDIRECT_URI,
  DemoClientId,
  issueCode,
  pkcePair,
  refreshRequest,
  registerTestClient,
  tokenRequest,
  tokensFor,
} from '../../test-support/token-helpers.ts';
import { arrivedAtMs } from './token.routes.ts';
import { TokenResponseSchema } from './token.schemas.ts';

const ids = inject('demoIds');

describe('POST /oauth/token', () => {
  let app: AuthApp;

  beforeAll(async () => {
    ({ app } = await buildTestApp());
  });
  afterAll(() => app.close());

  /** A fresh code for demo-confidential without PKCE: the grant fields of a request. */
  async function confidentialCodeFields(): Promise<Record<string, string>> {
    const code = await issueCode(app, {
      clientId: DemoClientId.confidential,
      userId: ids.users.alice,
    });
    return { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT_URI };
  }

  function expectOAuthError(
    response: Awaited<ReturnType<typeof tokenRequest>>,
    status: number,
    error: string,
  ) {
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toMatchObject({ error, error_description: expect.any(String) });
  }

  describe('the request (RFC 6749 3.2)', () => {
    it('accepts form-encoded POSTs only: a JSON body is invalid_request', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { authorization: confidentialBasic() },
        payload: await confidentialCodeFields(),
      });
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('answers a body of an unknown content type with invalid_request, not problem+json', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'text/plain' },
        payload: 'grant_type=authorization_code',
      });
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('answers a body over the limit with 413, in the RFC JSON', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=authorization_code&code=${'a'.repeat(300 * 1024)}`,
      });
      expectOAuthError(response, 413, 'invalid_request');
    });

    it('refuses a parameter sent twice', async () => {
      const fields = await confidentialCodeFields();
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: confidentialBasic(),
        },
        payload: `${new URLSearchParams(fields).toString()}&code=other`,
      });
      expectOAuthError(response, 400, 'invalid_request');
      expect(response.json()).toMatchObject({ error_description: 'code must be sent once' });
    });

    it.each([
      ['code', 'code must not contain the NUL character (U+0000)'],
      ['client_id', 'client_id must not contain the NUL character (U+0000)'],
      // Not a parameter of the endpoint, and not a name to echo: described without its name.
      ['x\u0000y', 'A parameter must not contain the NUL character (U+0000)'],
    ])('refuses a NUL character in %j with an invalid_request that says so', async (name, text) => {
      const fields = { ...(await confidentialCodeFields()), [name]: 'ab\u0000c' };
      const response = await tokenRequest(app, fields, { authorization: confidentialBasic() });
      expectOAuthError(response, 400, 'invalid_request');
      expect(response.json()).toEqual({ error: 'invalid_request', error_description: text });
    });

    it('requires grant_type', async () => {
      const response = await tokenRequest(app, { client_id: DemoClientId.public });
      expectOAuthError(response, 400, 'invalid_request');
    });

    it.each([
      'password',
      'client_credentials',
      'implicit',
      'urn:ietf:params:oauth:grant-type:device_code',
    ])('answers unsupported_grant_type for %s', async (grantType) => {
      const response = await tokenRequest(
        app,
        { grant_type: grantType },
        { authorization: confidentialBasic() },
      );
      expectOAuthError(response, 400, 'unsupported_grant_type');
    });

    it('answers unauthorized_client for a grant the client is not registered for', async () => {
      await registerTestClient(app, {
        clientId: 'token-test-code-only',
        grantTypes: ['authorization_code'],
      });
      const tokens = await tokensFor(app, {
        clientId: 'token-test-code-only',
        userId: ids.users.alice,
      });
      // RFC 6749 5.1: a refresh token only for clients that may use the refresh grant.
      expect(tokens.refresh_token).toBeUndefined();
      const response = await refreshRequest(app, 'token-test-code-only', 'anything');
      expectOAuthError(response, 400, 'unauthorized_client');
    });

    it('marks successes and errors Cache-Control: no-store and Pragma: no-cache (RFC 6749 5.1)', async () => {
      const ok = await tokenRequest(app, await confidentialCodeFields(), {
        authorization: confidentialBasic(),
      });
      expect(ok.statusCode).toBe(200);
      const failed = await tokenRequest(app, { grant_type: 'password' });
      for (const response of [ok, failed]) {
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers.pragma).toBe('no-cache');
      }
    });

    it('lets browser apps of any origin read the answers (no credentials involved)', async () => {
      const response = await tokenRequest(app, { grant_type: 'password' });
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('answers the RFC 6749 5.1 shape: Bearer, expires_in 3600, refresh_token, id_token, scope', async () => {
      const response = await tokenRequest(app, await confidentialCodeFields(), {
        authorization: confidentialBasic(),
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Value.Check(TokenResponseSchema, body)).toBe(true);
      expect(body).toMatchObject({
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'openid profile email regions',
        refresh_token: expect.any(String),
        id_token: expect.any(String),
      });
    });
  });

  describe('client authentication (RFC 6749 2.3)', () => {
    it('accepts client_secret_basic', async () => {
      const response = await tokenRequest(app, await confidentialCodeFields(), {
        authorization: confidentialBasic(),
      });
      expect(response.statusCode).toBe(200);
    });

    it('accepts client_secret_post', async () => {
      const response = await tokenRequest(app, {
        ...(await confidentialCodeFields()),
        client_id: DemoClientId.confidential,
        client_secret: DEMO_CLIENT_SECRET,
      });
      expect(response.statusCode).toBe(200);
    });

    it('refuses a wrong secret sent by Basic with 401 invalid_client and a Basic challenge', async () => {
      const response = await tokenRequest(app, await confidentialCodeFields(), {
        authorization: basicAuth(DemoClientId.confidential, 'wrong-secret'),
      });
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toMatch(/^Basic realm="[^"]+"/);
    });

    it('refuses a wrong secret sent in the body with 401 invalid_client, no challenge', async () => {
      const response = await tokenRequest(app, {
        ...(await confidentialCodeFields()),
        client_id: DemoClientId.confidential,
        client_secret: 'wrong-secret',
      });
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toBeUndefined();
    });

    it('refuses a confidential client without its secret', async () => {
      const response = await tokenRequest(app, {
        ...(await confidentialCodeFields()),
        client_id: DemoClientId.confidential,
      });
      expectOAuthError(response, 401, 'invalid_client');
    });

    it('refuses a Basic header without secret for a confidential client', async () => {
      const response = await tokenRequest(app, await confidentialCodeFields(), {
        authorization: basicAuth(DemoClientId.confidential, ''),
      });
      expectOAuthError(response, 401, 'invalid_client');
    });

    it('refuses malformed Basic credentials with invalid_client', async () => {
      const response = await tokenRequest(app, await confidentialCodeFields(), {
        authorization: `Basic ${Buffer.from('no-colon-here').toString('base64')}`,
      });
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toMatch(/^Basic /);
    });

    it('refuses two authentication methods at once with invalid_request', async () => {
      const response = await tokenRequest(
        app,
        {
          ...(await confidentialCodeFields()),
          client_id: DemoClientId.confidential,
          client_secret: DEMO_CLIENT_SECRET,
        },
        { authorization: confidentialBasic() },
      );
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('refuses a body client_id that differs from the Basic one', async () => {
      const response = await tokenRequest(
        app,
        { ...(await confidentialCodeFields()), client_id: DemoClientId.public },
        { authorization: confidentialBasic() },
      );
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('form-url-decodes Basic credentials (RFC 6749 2.3.1)', async () => {
      const secret = 'a+b c:d%e/f=g&h~ü';
      await registerTestClient(app, { clientId: 'token-test-special' }, secret);
      const code = await issueCode(app, { clientId: 'token-test-special', userId: ids.users.bob });
      const fields = { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT_URI };
      // Raw, not encoded: "+" would decode to a space and the secret would not match.
      const raw = `Basic ${Buffer.from(`token-test-special:${secret}`).toString('base64')}`;
      expectOAuthError(
        await tokenRequest(app, fields, { authorization: raw }),
        401,
        'invalid_client',
      );
      const response = await tokenRequest(app, fields, {
        authorization: basicAuth('token-test-special', secret),
      });
      expect(response.statusCode).toBe(200);
    });

    it('accepts the previous secret until it expires, during a rotation', async () => {
      await registerTestClient(app, { clientId: 'token-test-rotating' }, 'the-new-secret');
      const { hashClientSecret } = await import('@foodshare/domain');
      const em = app.orm.em.fork();
      const setPrevious = (expiresInMs: number) =>
        em.execute(
          `update oauth_clients set previous_secret_hash = ?, previous_secret_expires_at = ?
            where client_id = ?`,
          [
            hashClientSecret('the-old-secret', servicesOf(app).secrets.clientSecretPepper),
            new Date(Date.now() + expiresInMs),
            'token-test-rotating',
          ],
        );
      const exchange = async (secret: string) => {
        const code = await issueCode(app, {
          clientId: 'token-test-rotating',
          userId: ids.users.bob,
        });
        return tokenRequest(
          app,
          { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT_URI },
          { authorization: basicAuth('token-test-rotating', secret) },
        );
      };
      await setPrevious(60_000);
      expect((await exchange('the-new-secret')).statusCode).toBe(200);
      expect((await exchange('the-old-secret')).statusCode).toBe(200);
      await setPrevious(-1);
      expect((await exchange('the-new-secret')).statusCode).toBe(200);
      expectOAuthError(await exchange('the-old-secret'), 401, 'invalid_client');
    });

    it('refuses an unknown client', async () => {
      const response = await tokenRequest(app, {
        ...(await confidentialCodeFields()),
        client_id: 'no-such-client',
      });
      expectOAuthError(response, 401, 'invalid_client');
    });

    it('refuses a request that names no client', async () => {
      const response = await tokenRequest(app, await confidentialCodeFields());
      expectOAuthError(response, 401, 'invalid_client');
    });

    it('refuses a deactivated client', async () => {
      await registerTestClient(app, { clientId: 'token-test-inactive' }, 'inactive-secret');
      await app.orm.em
        .fork()
        .execute(`update oauth_clients set active = false where client_id = 'token-test-inactive'`);
      const code = await issueCode(app, { clientId: 'token-test-inactive', userId: ids.users.bob });
      const response = await tokenRequest(
        app,
        { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT_URI },
        { authorization: basicAuth('token-test-inactive', 'inactive-secret') },
      );
      expectOAuthError(response, 401, 'invalid_client');
    });

    it('refuses a public client that sends a secret', async () => {
      const { verifier, challenge } = pkcePair();
      const code = await issueCode(app, {
        clientId: DemoClientId.public,
        userId: ids.users.alice,
        codeChallenge: challenge,
      });
      const response = await tokenRequest(app, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT_URI,
        code_verifier: verifier,
        client_id: DemoClientId.public,
        client_secret: 'made-up',
      });
      expectOAuthError(response, 401, 'invalid_client');
    });

    it('limits the token requests per client and minute with 429 and Retry-After', async () => {
      await registerTestClient(app, { clientId: 'token-test-busy' }, 'busy-secret');
      const limit = servicesOf(app).config.TOKEN_REQUESTS_PER_CLIENT_PER_MINUTE;
      // Uses up the minute's budget but one, without sending hundreds of requests.
      await app.kv.increment(clientBudgetKeys.client('token-test-busy'), 60_000, limit - 1);
      const exchange = async () => {
        const code = await issueCode(app, { clientId: 'token-test-busy', userId: ids.users.bob });
        return tokenRequest(
          app,
          { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT_URI },
          { authorization: basicAuth('token-test-busy', 'busy-secret') },
        );
      };
      expect((await exchange()).statusCode).toBe(200);
      const refused = await exchange();
      expectOAuthError(refused, 429, 'temporarily_unavailable');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another client is not affected.
      const other = await tokenRequest(app, await confidentialCodeFields(), {
        authorization: confidentialBasic(),
      });
      expect(other.statusCode).toBe(200);
    });
  });
});

describe('POST /oauth/token rate limits (no client locks out another)', () => {
  const LIMIT = 3;
  let app: AuthApp;

  beforeAll(async () => {
    ({ app } = await buildTestApp({
      TOKEN_REQUESTS_PER_CLIENT_PER_MINUTE: String(LIMIT),
      TOKEN_REQUESTS_PER_PUBLIC_CLIENT_AND_IP_PER_MINUTE: String(LIMIT),
      TOKEN_CLIENT_AUTH_FAILURES_PER_CLIENT_AND_IP_PER_MINUTE: String(LIMIT),
    }));
  });
  afterAll(() => app.close());

  const fromAddress = (
    remoteAddress: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
    url = '/oauth/token',
  ) =>
    app.inject({
      method: 'POST',
      url,
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(fields).toString(),
    });

  /** What anybody can send: demo-public's id and a made-up code. */
  const junkForDemoPublic = (remoteAddress: string) =>
    fromAddress(remoteAddress, {
      grant_type: 'authorization_code',
      code: 'made-up-code',
      redirect_uri: DEMO_REDIRECT_URI,
      code_verifier: pkcePair().verifier,
      client_id: DemoClientId.public,
    });

  /** A real code exchange of demo-public from the address. */
  async function publicExchange(remoteAddress: string) {
    const { verifier, challenge } = pkcePair();
    const code = await issueCode(app, {
      clientId: DemoClientId.public,
      userId: ids.users.alice,
      codeChallenge: challenge,
    });
    return fromAddress(remoteAddress, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: DEMO_REDIRECT_URI,
      code_verifier: verifier,
      client_id: DemoClientId.public,
    });
  }

  async function confidentialExchange(remoteAddress: string, secret: string) {
    const code = await issueCode(app, {
      clientId: DemoClientId.confidential,
      userId: ids.users.alice,
    });
    return fromAddress(
      remoteAddress,
      { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT_URI },
      { authorization: basicAuth(DemoClientId.confidential, secret) },
    );
  }

  function expectTooManyRequests(response: Awaited<ReturnType<typeof fromAddress>>) {
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ error: 'temporarily_unavailable' });
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  }

  it('lets one address spend only its own budget of a public client', async () => {
    for (let i = 0; i < LIMIT; i++) {
      expect((await junkForDemoPublic('203.0.113.7')).statusCode).toBe(400);
    }
    expectTooManyRequests(await junkForDemoPublic('203.0.113.7'));
    expectTooManyRequests(await publicExchange('203.0.113.7'));
    // The users of demo-public elsewhere are not locked out by that flood.
    expect((await publicExchange('203.0.113.8')).statusCode).toBe(200);
  });

  it('counts an IPv6 sender per /64, the unit one sender controls', async () => {
    for (let i = 0; i < LIMIT; i++) {
      expect((await junkForDemoPublic(`2001:db8:7:1::${i + 1}`)).statusCode).toBe(400);
    }
    expectTooManyRequests(await junkForDemoPublic('2001:db8:7:1::ffff'));
    expect((await publicExchange('2001:db8:7:2::1')).statusCode).toBe(200);
  });

  it('answers repeated wrong secrets with 429 and Retry-After, before checking the secret', async () => {
    for (let i = 0; i < LIMIT; i++) {
      const refused = await confidentialExchange('198.51.100.20', `wrong-secret-${i}`);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ error: 'invalid_client' });
    }
    expectTooManyRequests(await confidentialExchange('198.51.100.20', 'wrong-secret-again'));
    // Past the limit even the right secret is refused: a guess is neither checked nor confirmed.
    expectTooManyRequests(await confidentialExchange('198.51.100.20', DEMO_CLIENT_SECRET));
    // Secret guessing cannot move to the revocation endpoint, which authenticates alike.
    expectTooManyRequests(
      await fromAddress(
        '198.51.100.20',
        { token: 'anything' },
        { authorization: basicAuth(DemoClientId.confidential, 'wrong-secret-revoke') },
        '/oauth/revoke',
      ),
    );
    // The client itself, at its own address, is not locked out by the guesser.
    expect((await confidentialExchange('198.51.100.21', DEMO_CLIENT_SECRET)).statusCode).toBe(200);
  });

  it('lets no more wrong secrets than the limit be checked, however many arrive at once', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => confidentialExchange('198.51.100.50', `guess-${i}`)),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - LIMIT);
    for (const response of responses.filter((r) => r.statusCode === 429)) {
      expectTooManyRequests(response);
    }
    // As at login: past the limit the right secret is refused unchecked until the window ends.
    expectTooManyRequests(await confidentialExchange('198.51.100.50', DEMO_CLIENT_SECRET));
  });

  it('keeps a public client to its per-address budget under a burst', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => junkForDemoPublic('203.0.113.60')),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 400).length).toBeLessThanOrEqual(LIMIT);
    expect(statuses.filter((status) => status !== 400 && status !== 429)).toEqual([]);
    expectTooManyRequests(await publicExchange('203.0.113.60'));
  });

  it('counts wrong secrets at the revocation endpoint too', async () => {
    await registerTestClient(app, { clientId: 'token-test-revoke-guess' }, 'revoke-guess-secret');
    const revokeWith = (secret: string) =>
      fromAddress(
        '198.51.100.30',
        { token: 'anything' },
        { authorization: basicAuth('token-test-revoke-guess', secret) },
        '/oauth/revoke',
      );
    for (let i = 0; i < LIMIT; i++) expect((await revokeWith(`wrong-${i}`)).statusCode).toBe(401);
    expectTooManyRequests(await revokeWith('revoke-guess-secret'));
  });

  it('spends a confidential client’s budget only on requests that proved its secret', async () => {
    await registerTestClient(app, { clientId: 'token-test-own-budget' }, 'own-budget-secret');
    const exchange = async (remoteAddress: string, secret: string) => {
      const code = await issueCode(app, {
        clientId: 'token-test-own-budget',
        userId: ids.users.bob,
      });
      return fromAddress(
        remoteAddress,
        { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT_URI },
        { authorization: basicAuth('token-test-own-budget', secret) },
      );
    };
    for (let i = 0; i < LIMIT; i++) {
      expect((await exchange('198.51.100.40', 'not-the-secret')).statusCode).toBe(401);
    }
    for (let i = 0; i < LIMIT; i++) {
      expect((await exchange('198.51.100.41', 'own-budget-secret')).statusCode).toBe(200);
    }
    // Its own budget, spent from any address, does limit it.
    expectTooManyRequests(await exchange('198.51.100.42', 'own-budget-secret'));
  });
});

describe('arrivedAtMs', () => {
  it('never dates a request before a rotation that ended earlier in the same millisecond', () => {
    // The rotation ends at 1000.1 ms (rotatedAt: Date.now() = 1000); the reuse arrives at
    // 1000.2 and is handled at 1000.9, when Date.now() still says 1000 and 0.7 ms have passed.
    const rotatedAt = Math.floor(1000.1);
    const arrived = arrivedAtMs(Math.floor(1000.9), 1000.9 - 1000.2);
    expect(arrived).toBeGreaterThanOrEqual(rotatedAt);
  });

  it('dates a request by the millisecond it arrived in, or the next', () => {
    expect(arrivedAtMs(5000, 0)).toBe(5000);
    expect(arrivedAtMs(5000, 2.5)).toBe(4998);
    expect(arrivedAtMs(5001, 1.2)).toBe(5000);
  });
});

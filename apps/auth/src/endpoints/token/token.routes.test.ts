import { servicesOf } from '../../test-support/build-test-app.ts';
import { announceClientRowChange } from '@foodshare/server-kit/oauth-grants';
import { Value } from 'typebox/value';
import type { AuthApp } from '../../app.ts';
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
import { describe, expect, ids, it } from '../../test-support/fixtures.ts';

describe('POST /oauth/token', () => {
  /** A fresh code for demo-confidential without PKCE: the grant fields of a request. */
  async function confidentialCodeFields(app: AuthApp): Promise<Record<string, string>> {
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
    it('accepts form-encoded POSTs only: a JSON body is invalid_request', async ({ app }) => {
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { authorization: confidentialBasic() },
        payload: await confidentialCodeFields(app),
      });
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('answers a body of an unknown content type with invalid_request, not problem+json', async ({
      app,
    }) => {
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'text/plain' },
        payload: 'grant_type=authorization_code',
      });
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('answers a body over the limit with 413, in the RFC JSON', async ({ app }) => {
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=authorization_code&code=${'a'.repeat(300 * 1024)}`,
      });
      expectOAuthError(response, 413, 'invalid_request');
    });

    it('refuses a parameter sent twice', async ({ app }) => {
      const fields = await confidentialCodeFields(app);
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

    it.for([
      ['code', 'code must not contain the NUL character (U+0000)'],
      ['client_id', 'client_id must not contain the NUL character (U+0000)'],
      // Not a parameter of the endpoint, and not a name to echo: described without its name.
      ['x\u0000y', 'A parameter must not contain the NUL character (U+0000)'],
    ] as const)(
      'refuses a NUL character in %j with an invalid_request that says so',
      async ([name, text], { app }) => {
        const fields = { ...(await confidentialCodeFields(app)), [name]: 'ab\u0000c' };
        const response = await tokenRequest(app, fields, { authorization: confidentialBasic() });
        expectOAuthError(response, 400, 'invalid_request');
        expect(response.json()).toEqual({ error: 'invalid_request', error_description: text });
      },
    );

    it('requires grant_type', async ({ app }) => {
      const response = await tokenRequest(app, { client_id: DemoClientId.public });
      expectOAuthError(response, 400, 'invalid_request');
    });

    it.for([
      'password',
      'client_credentials',
      'implicit',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
    ])('answers unsupported_grant_type for %s', async (grantType, { app }) => {
      const response = await tokenRequest(
        app,
        { grant_type: grantType },
        { authorization: confidentialBasic() },
      );
      expectOAuthError(response, 400, 'unsupported_grant_type');
    });

    it('answers unauthorized_client for a grant the client is not registered for', async ({
      app,
    }) => {
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

    it('marks successes and errors Cache-Control: no-store and Pragma: no-cache (RFC 6749 5.1)', async ({
      app,
    }) => {
      const ok = await tokenRequest(app, await confidentialCodeFields(app), {
        authorization: confidentialBasic(),
      });
      expect(ok.statusCode).toBe(200);
      const failed = await tokenRequest(app, { grant_type: 'password' });
      for (const response of [ok, failed]) {
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers.pragma).toBe('no-cache');
      }
    });

    it('lets browser apps of any origin read the answers (no credentials involved)', async ({
      app,
    }) => {
      const response = await tokenRequest(app, { grant_type: 'password' });
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('answers the RFC 6749 5.1 shape: Bearer, expires_in 3600, refresh_token, id_token, scope', async ({
      app,
    }) => {
      const response = await tokenRequest(app, await confidentialCodeFields(app), {
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
    it('accepts client_secret_basic', async ({ app }) => {
      const response = await tokenRequest(app, await confidentialCodeFields(app), {
        authorization: confidentialBasic(),
      });
      expect(response.statusCode).toBe(200);
    });

    it('accepts client_secret_post', async ({ app }) => {
      const response = await tokenRequest(app, {
        ...(await confidentialCodeFields(app)),
        client_id: DemoClientId.confidential,
        client_secret: DEMO_CLIENT_SECRET,
      });
      expect(response.statusCode).toBe(200);
    });

    it('refuses a wrong secret sent by Basic with 401 invalid_client and a Basic challenge', async ({
      app,
    }) => {
      const response = await tokenRequest(app, await confidentialCodeFields(app), {
        authorization: basicAuth(DemoClientId.confidential, 'wrong-secret'),
      });
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toMatch(/^Basic realm="[^"]+"/);
    });

    it('refuses a wrong secret sent in the body with 401 invalid_client, no challenge', async ({
      app,
    }) => {
      const response = await tokenRequest(app, {
        ...(await confidentialCodeFields(app)),
        client_id: DemoClientId.confidential,
        client_secret: 'wrong-secret',
      });
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toBeUndefined();
    });

    it('refuses a confidential client without its secret', async ({ app }) => {
      const response = await tokenRequest(app, {
        ...(await confidentialCodeFields(app)),
        client_id: DemoClientId.confidential,
      });
      expectOAuthError(response, 401, 'invalid_client');
    });

    it('refuses a Basic header without secret for a confidential client', async ({ app }) => {
      const response = await tokenRequest(app, await confidentialCodeFields(app), {
        authorization: basicAuth(DemoClientId.confidential, ''),
      });
      expectOAuthError(response, 401, 'invalid_client');
    });

    it('refuses malformed Basic credentials with invalid_client', async ({ app }) => {
      const response = await tokenRequest(app, await confidentialCodeFields(app), {
        authorization: `Basic ${Buffer.from('no-colon-here').toString('base64')}`,
      });
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toMatch(/^Basic /);
    });

    it('refuses two authentication methods at once with invalid_request', async ({ app }) => {
      const response = await tokenRequest(
        app,
        {
          ...(await confidentialCodeFields(app)),
          client_id: DemoClientId.confidential,
          client_secret: DEMO_CLIENT_SECRET,
        },
        { authorization: confidentialBasic() },
      );
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('refuses a body client_id that differs from the Basic one', async ({ app }) => {
      const response = await tokenRequest(
        app,
        { ...(await confidentialCodeFields(app)), client_id: DemoClientId.public },
        { authorization: confidentialBasic() },
      );
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('form-url-decodes Basic credentials (RFC 6749 2.3.1)', async ({ app }) => {
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

    it('accepts the previous secret until it expires, during a rotation', async ({ app }) => {
      await registerTestClient(app, { clientId: 'token-test-rotating' }, 'the-new-secret');
      const { hashClientSecret } = await import('@foodshare/domain');
      const em = app.orm.em.fork();
      // As the admin page changes a client: the row, then its announcement (docs/oauth.md §6.4).
      const setPrevious = async (expiresInMs: number) => {
        await em.execute(
          `update oauth_clients set previous_secret_hash = ?, previous_secret_expires_at = ?
            where client_id = ?`,
          [
            hashClientSecret('the-old-secret', servicesOf(app).secrets.clientSecretPepper),
            new Date(Date.now() + expiresInMs),
            'token-test-rotating',
          ],
        );
        await announceClientRowChange(servicesOf(app).kv, 'token-test-rotating');
      };
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

    it('refuses an unknown client', async ({ app }) => {
      const response = await tokenRequest(app, {
        ...(await confidentialCodeFields(app)),
        client_id: 'no-such-client',
      });
      expectOAuthError(response, 401, 'invalid_client');
    });

    it('refuses a request that names no client', async ({ app }) => {
      const response = await tokenRequest(app, await confidentialCodeFields(app));
      expectOAuthError(response, 401, 'invalid_client');
    });

    it('refuses a deactivated client', async ({ app }) => {
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

    it('refuses a public client that sends a secret', async ({ app }) => {
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

    it('limits the token requests per client and minute with 429 and Retry-After', async ({
      app,
    }) => {
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
      const other = await tokenRequest(app, await confidentialCodeFields(app), {
        authorization: confidentialBasic(),
      });
      expect(other.statusCode).toBe(200);
    });
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

import { servicesOf } from '../../test-support/build-test-app.ts';
import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuthApp } from '../../app.ts';
import { clientBudgetKeys } from '../../clients/client-endpoint.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';
import {
  basicAuth,
  clientFormEndpoint,
  confidentialBasic,
  DEMO_CLIENT_SECRET,
  DEMO_REDIRECT_URI,
  DemoClientId,
  expectClientCredentialsRequired,
  issueCode,
  pkcePair,
  postForm,
  refreshRequest,
  registerTestClient,
  tokenRequest,
  tokensFor,
  type TokenResponse,
} from '../../test-support/token-helpers.ts';

const ids = inject('demoIds');

const seconds = () => Math.floor(Date.now() / 1000);

describe('POST /oauth/introspect (RFC 7662)', () => {
  let app: AuthApp;

  beforeAll(async () => {
    // demo-confidential is the resource server, which may introspect another client's tokens.
    ({ app } = await buildTestApp({ INTROSPECTION_RESOURCE_SERVERS: DemoClientId.confidential }));
  });
  afterAll(() => app.close());

  const endpoint = () => clientFormEndpoint(app, '/oauth/introspect');
  const introspect = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    endpoint().post(fields, headers);

  /** As a resource server would ask: demo-confidential, by client_secret_basic. */
  const introspectAsResourceServer = (token: string, extra: Record<string, string> = {}) =>
    introspect({ token, ...extra }, { authorization: confidentialBasic() });

  const bobsTokens = () => tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.bob });

  async function expectInactive(token: string) {
    const response = await introspectAsResourceServer(token);
    expect(response.statusCode).toBe(200);
    // RFC 7662 2.2: nothing beyond `active`, so the answer does not tell why.
    expect(response.json()).toEqual({ active: false });
    expect(response.headers['cache-control']).toBe('no-store');
  }

  async function expectActive(token: string) {
    const response = await introspectAsResourceServer(token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ active: true });
  }

  describe('access tokens', () => {
    it("answers a live token of another client with the token's claims", async () => {
      const tokens = await bobsTokens();
      const response = await introspectAsResourceServer(tokens.access_token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const body = response.json<Record<string, unknown>>();
      expect(body).toEqual({
        active: true,
        scope: 'openid profile email regions',
        client_id: DemoClientId.public,
        token_type: 'Bearer',
        exp: expect.any(Number),
        iat: expect.any(Number),
        sub: String(ids.users.bob),
        aud: DemoClientId.public,
        iss: servicesOf(app).issuer,
        jti: expect.any(String),
      });
      expect(Number(body.exp) - Number(body.iat)).toBe(
        servicesOf(app).config.ACCESS_TOKEN_TTL_SECONDS,
      );
    });

    it('answers a narrowed scope as the token carries it', async () => {
      const tokens = await tokensFor(app, {
        clientId: DemoClientId.public,
        userId: ids.users.bob,
        scopes: ['openid', 'email'],
      });
      expect((await introspectAsResourceServer(tokens.access_token)).json()).toMatchObject({
        active: true,
        scope: 'openid email',
      });
    });

    it('ignores token_type_hint, a wrong one included (RFC 7662 2.1)', async () => {
      const tokens = await bobsTokens();
      for (const hint of ['access_token', 'refresh_token', 'something_else']) {
        const response = await introspectAsResourceServer(tokens.access_token, {
          token_type_hint: hint,
        });
        expect(response.json(), hint).toMatchObject({ active: true, token_type: 'Bearer' });
      }
    });

    it('answers inactive once the token was revoked at /oauth/revoke', async () => {
      const tokens = await bobsTokens();
      await expectActive(tokens.access_token);
      const revoked = await postForm(app, '/oauth/revoke', {
        token: tokens.access_token,
        client_id: DemoClientId.public,
      });
      expect(revoked.statusCode).toBe(200);
      await expectInactive(tokens.access_token);
    });

    it('answers inactive for an expired token signed by our own key', async () => {
      const expired = await servicesOf(app).keys.signJwt(
        {
          sub: String(ids.users.bob),
          aud: DemoClientId.public,
          client_id: DemoClientId.public,
          scope: 'openid',
          jti: 'introspect-expired',
          iat: seconds() - 3700,
          exp: seconds() - 100,
        },
        { typ: 'at+jwt' },
      );
      await expectInactive(expired);
    });

    it('answers inactive for a token signed by another key under our kid and issuer', async () => {
      const { kid } = decodeProtectedHeader((await bobsTokens()).access_token);
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const forged = await new SignJWT({
        sub: String(ids.users.bob),
        aud: DemoClientId.public,
        client_id: DemoClientId.public,
        scope: 'openid',
        jti: 'introspect-forged',
      })
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: kid! })
        .setIssuer(servicesOf(app).issuer)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
      await expectInactive(forged);
    });

    it('answers inactive for a token of another issuer, even one signed by our key', async () => {
      // Another issuer sharing the database shares the signing keys: only `iss` tells them apart.
      const { app: other } = await buildTestApp({ BASE_URL: 'https://other-issuer.example' });
      try {
        const tokens = await tokensFor(other, {
          clientId: DemoClientId.public,
          userId: ids.users.bob,
        });
        await expectInactive(tokens.access_token);
      } finally {
        await other.close();
      }
    });

    it('answers inactive for an ID token, which is no access token', async () => {
      await expectInactive((await bobsTokens()).id_token!);
    });

    it.each([
      ['garbage', 'not-a-token'],
      ['three empty parts', '..'],
      ['five parts of garbage', 'a.b.c.d.e'],
      ['an unsigned JWT', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.'],
    ])('answers inactive for %s', async (_name, token) => {
      await expectInactive(token);
    });
  });

  describe('refresh tokens', () => {
    it('answers a live refresh token with scope, client, subject and expiry', async () => {
      const tokens = await bobsTokens();
      const response = await introspectAsResourceServer(tokens.refresh_token!);
      expect(response.statusCode).toBe(200);
      const body = response.json<Record<string, unknown>>();
      expect(body).toEqual({
        active: true,
        scope: 'openid profile email regions',
        client_id: DemoClientId.public,
        sub: String(ids.users.bob),
        exp: expect.any(Number),
        iss: servicesOf(app).issuer,
      });
      const lifetime = servicesOf(app).config.REFRESH_TOKEN_TTL_SECONDS;
      expect(Number(body.exp)).toBeGreaterThan(seconds() + lifetime - 60);
      expect(Number(body.exp)).toBeLessThanOrEqual(seconds() + lifetime);
    });

    it('answers inactive for a rotated refresh token and active for its successor', async () => {
      const tokens = await bobsTokens();
      const refreshed = await refreshRequest(app, DemoClientId.public, tokens.refresh_token!);
      expect(refreshed.statusCode).toBe(200);
      const next = refreshed.json<TokenResponse>();
      await expectInactive(tokens.refresh_token!);
      // Asking about the old token is no replay: the family lives on.
      await expectActive(next.refresh_token!);
      await expectActive(next.access_token);
    });

    it('answers inactive for every token of a family revoked at /oauth/revoke', async () => {
      const tokens = await bobsTokens();
      const revoked = await postForm(app, '/oauth/revoke', {
        token: tokens.refresh_token!,
        client_id: DemoClientId.public,
      });
      expect(revoked.statusCode).toBe(200);
      await expectInactive(tokens.refresh_token!);
      await expectInactive(tokens.access_token);
    });

    it('answers inactive for an expired refresh token of a live family', async () => {
      const tokens = await bobsTokens();
      const live = await servicesOf(app).refreshTokens.open(tokens.refresh_token!);
      const expired = await servicesOf(app).refreshTokens.seal({
        ...live!,
        expiresAt: seconds() - 1,
      });
      await expectInactive(expired);
      await expectActive(tokens.refresh_token!);
    });

    it('answers inactive for a tampered refresh token', async () => {
      const tokens = await bobsTokens();
      const [header, key, iv, ciphertext, tag] = tokens.refresh_token!.split('.');
      // One byte of the ciphertext changed: its authentication fails.
      const flipped = Buffer.from(ciphertext!, 'base64url');
      flipped[0]! ^= 1;
      const tampered = [header, key, iv, flipped.toString('base64url'), tag].join('.');
      await expectInactive(tampered);
    });
  });

  it('answers inactive for every token of a client whose grants were ended (deactivated)', async () => {
    await registerTestClient(app, { clientId: 'introspect-ended' });
    const tokens = await tokensFor(app, { clientId: 'introspect-ended', userId: ids.users.bob });
    await expectActive(tokens.access_token);
    await servicesOf(app).grantRevocation.endClientGrants('introspect-ended', new Date());
    await expectInactive(tokens.access_token);
    await expectInactive(tokens.refresh_token!);
  });

  describe('client authentication', () => {
    it('accepts client_secret_post as well', async () => {
      const tokens = await bobsTokens();
      const response = await introspect({
        token: tokens.access_token,
        client_id: DemoClientId.confidential,
        client_secret: DEMO_CLIENT_SECRET,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ active: true });
    });

    it('refuses a public client with 401 invalid_client, telling it nothing of the token', async () => {
      const tokens = await bobsTokens();
      const response = await introspect({
        token: tokens.access_token,
        client_id: DemoClientId.public,
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'invalid_client' });
      expect(response.body).not.toContain('active');
      // Basic with an empty password is how some libraries present a public client.
      const viaBasic = await introspect(
        { token: tokens.access_token },
        { authorization: basicAuth(DemoClientId.public, '') },
      );
      expect(viaBasic.statusCode).toBe(401);
      expect(viaBasic.headers['www-authenticate']).toMatch(/^Basic /);
    });

    it('refuses a wrong secret and a request without credentials with 401 invalid_client', async () => {
      await expectClientCredentialsRequired(endpoint());
    });
  });

  describe('bad requests', () => {
    it('requires the token parameter: invalid_request', async () => {
      const response = await introspect({}, { authorization: confidentialBasic() });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'invalid_request',
        error_description: 'token is required',
      });
    });

    it('accepts form-encoded bodies only', async () => {
      const response = await endpoint().postJson(
        { token: 'x' },
        { authorization: confidentialBasic() },
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request' });
    });

    it('refuses a parameter sent twice', async () => {
      const response = await endpoint().postRaw('token=a&token=b', {
        authorization: confidentialBasic(),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'invalid_request',
        error_description: 'token must be sent once',
      });
    });
  });
});

// Issue 31, finding 5: any confidential client learned the sub, scope and client of any token.
describe('POST /oauth/introspect by a client that is no resource server', () => {
  let app: AuthApp;

  beforeAll(async () => {
    // The default: no client introspects the tokens of every client.
    ({ app } = await buildTestApp());
  });
  afterAll(() => app.close());

  const introspectAs = (clientId: string, secret: string, token: string) =>
    clientFormEndpoint(app, '/oauth/introspect').post(
      { token },
      { authorization: basicAuth(clientId, secret) },
    );

  it("answers inactive for another client's access and refresh tokens, and nothing more", async () => {
    const tokens = await tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.bob });
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      const response = await introspectAs(DemoClientId.confidential, DEMO_CLIENT_SECRET, token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ active: false });
    }
  });

  it('answers its own tokens in full', async () => {
    await registerTestClient(app, { clientId: 'introspect-own' }, 'own-secret');
    const { verifier, challenge } = pkcePair();
    const code = await issueCode(app, {
      clientId: 'introspect-own',
      userId: ids.users.bob,
      codeChallenge: challenge,
    });
    const exchanged = await tokenRequest(
      app,
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT_URI,
        code_verifier: verifier,
      },
      { authorization: basicAuth('introspect-own', 'own-secret') },
    );
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const tokens = exchanged.json<{ access_token: string; refresh_token: string }>();
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      const response = await introspectAs('introspect-own', 'own-secret', token);
      expect(response.json()).toMatchObject({
        active: true,
        client_id: 'introspect-own',
        sub: String(ids.users.bob),
      });
    }
    // And another confidential client hears nothing of them.
    const other = await introspectAs(
      DemoClientId.confidential,
      DEMO_CLIENT_SECRET,
      tokens.access_token,
    );
    expect(other.json()).toEqual({ active: false });
  });
});

describe('POST /oauth/introspect rate limits', () => {
  const LIMIT = 3;
  let app: AuthApp;

  beforeAll(async () => {
    ({ app } = await buildTestApp({
      TOKEN_REQUESTS_PER_CLIENT_PER_MINUTE: String(LIMIT),
      TOKEN_CLIENT_AUTH_FAILURES_PER_CLIENT_AND_IP_PER_MINUTE: String(LIMIT),
    }));
  });
  afterAll(() => app.close());

  const introspectAs = (
    clientId: string,
    secret: string,
    remoteAddress = '192.0.2.90',
    token = 'not-a-token',
  ) =>
    app.inject({
      method: 'POST',
      url: '/oauth/introspect',
      remoteAddress,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth(clientId, secret),
      },
      payload: new URLSearchParams({ token }).toString(),
    });

  function expectTooManyRequests(response: Awaited<ReturnType<typeof introspectAs>>) {
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ error: 'temporarily_unavailable' });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  }

  it('limits the requests per client and minute with 429, apart from its token requests', async () => {
    await registerTestClient(app, { clientId: 'introspect-busy' }, 'busy-secret');
    // The token endpoint's budget, used up: introspection keeps its own.
    await app.kv.increment(clientBudgetKeys.client('introspect-busy'), 60_000, LIMIT);
    const statuses = [];
    for (let i = 0; i <= LIMIT; i++) {
      statuses.push((await introspectAs('introspect-busy', 'busy-secret')).statusCode);
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429]);
    expectTooManyRequests(await introspectAs('introspect-busy', 'busy-secret', '192.0.2.91'));
    // Another client is not affected.
    expect((await introspectAs(DemoClientId.confidential, DEMO_CLIENT_SECRET)).statusCode).toBe(
      200,
    );
  });

  it('counts wrong secrets with those of the token endpoint, and then refuses unchecked', async () => {
    await registerTestClient(app, { clientId: 'introspect-guessed' }, 'guessed-secret');
    for (let i = 0; i < LIMIT; i++) {
      expect((await introspectAs('introspect-guessed', `wrong-${i}`)).statusCode).toBe(401);
    }
    // Past the limit even the right secret is refused unchecked, here and at the token endpoint.
    expectTooManyRequests(await introspectAs('introspect-guessed', 'guessed-secret'));
    const tokenRequest = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: '192.0.2.90',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth('introspect-guessed', 'guessed-secret'),
      },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x' }).toString(),
    });
    expectTooManyRequests(tokenRequest);
    // The client at its own address is not locked out by the guesser.
    const elsewhere = await introspectAs('introspect-guessed', 'guessed-secret', '192.0.2.92');
    expect(elsewhere.statusCode).toBe(200);
  });
});

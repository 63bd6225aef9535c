import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, SignJWT } from 'jose';
import type { AuthApp } from '../../app.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';
import {
  basicAuth,
  clientFormEndpoint,
  confidentialBasic,
  DEMO_CLIENT_SECRET,
  DemoClientId,
  expectClientCredentialsRequired,
  postForm,
  refreshRequest,
  tokensFor,
  type TokenResponse,
} from '../../test-support/token-helpers.ts';
import { describe, expect, ids, it, test } from '../../test-support/fixtures.ts';

// demo-confidential is the resource server, which may introspect another client's tokens.
test.override(
  'appEnv',
  { scope: 'file' },
  { INTROSPECTION_RESOURCE_SERVERS: DemoClientId.confidential },
);

const seconds = () => Math.floor(Date.now() / 1000);

describe('POST /oauth/introspect (RFC 7662)', () => {
  const endpoint = (app: AuthApp) => clientFormEndpoint(app, '/oauth/introspect');
  const introspect = (
    app: AuthApp,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) => endpoint(app).post(fields, headers);

  /** As a resource server would ask: demo-confidential, by client_secret_basic. */
  const introspectAsResourceServer = (
    app: AuthApp,
    token: string,
    extra: Record<string, string> = {},
  ) => introspect(app, { token, ...extra }, { authorization: confidentialBasic() });

  const bobsTokens = (app: AuthApp) =>
    tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.bob });

  async function expectInactive(app: AuthApp, token: string) {
    const response = await introspectAsResourceServer(app, token);
    expect(response.statusCode).toBe(200);
    // RFC 7662 2.2: nothing beyond `active`, so the answer does not tell why.
    expect(response.json()).toEqual({ active: false });
    expect(response.headers['cache-control']).toBe('no-store');
  }

  async function expectActive(app: AuthApp, token: string) {
    const response = await introspectAsResourceServer(app, token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ active: true });
  }

  describe('access tokens', () => {
    it("answers a live token of another client with the token's claims", async ({
      app,
      services,
    }) => {
      const tokens = await bobsTokens(app);
      const response = await introspectAsResourceServer(app, tokens.access_token);
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
        iss: services.issuer,
        jti: expect.any(String),
      });
      expect(Number(body.exp) - Number(body.iat)).toBe(services.config.ACCESS_TOKEN_TTL_SECONDS);
    });

    it('answers a narrowed scope as the token carries it', async ({ app }) => {
      const tokens = await tokensFor(app, {
        clientId: DemoClientId.public,
        userId: ids.users.bob,
        scopes: ['openid', 'email'],
      });
      expect((await introspectAsResourceServer(app, tokens.access_token)).json()).toMatchObject({
        active: true,
        scope: 'openid email',
      });
    });

    it('ignores token_type_hint, a wrong one included (RFC 7662 2.1)', async ({ app }) => {
      const tokens = await bobsTokens(app);
      for (const hint of ['access_token', 'refresh_token', 'something_else']) {
        const response = await introspectAsResourceServer(app, tokens.access_token, {
          token_type_hint: hint,
        });
        expect(response.json(), hint).toMatchObject({ active: true, token_type: 'Bearer' });
      }
    });

    it('answers inactive once the token was revoked at /oauth/revoke', async ({ app }) => {
      const tokens = await bobsTokens(app);
      await expectActive(app, tokens.access_token);
      const revoked = await postForm(app, '/oauth/revoke', {
        token: tokens.access_token,
        client_id: DemoClientId.public,
      });
      expect(revoked.statusCode).toBe(200);
      await expectInactive(app, tokens.access_token);
    });

    it('answers inactive for an expired token signed by our own key', async ({ app, services }) => {
      const expired = await services.keys.signJwt(
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
      await expectInactive(app, expired);
    });

    it('answers inactive for a token signed by another key under our kid and issuer', async ({
      app,
      services,
    }) => {
      const { kid } = decodeProtectedHeader((await bobsTokens(app)).access_token);
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const forged = await new SignJWT({
        sub: String(ids.users.bob),
        aud: DemoClientId.public,
        client_id: DemoClientId.public,
        scope: 'openid',
        jti: 'introspect-forged',
      })
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: kid! })
        .setIssuer(services.issuer)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
      await expectInactive(app, forged);
    });

    it('answers inactive for a token of another issuer, even one signed by our key', async ({
      app,
    }) => {
      // Another issuer sharing the database shares the signing keys: only `iss` tells them apart.
      const { app: other } = await buildTestApp({ BASE_URL: 'https://other-issuer.example' });
      try {
        const tokens = await tokensFor(other, {
          clientId: DemoClientId.public,
          userId: ids.users.bob,
        });
        await expectInactive(app, tokens.access_token);
      } finally {
        await other.close();
      }
    });

    it('answers inactive for an ID token, which is no access token', async ({ app }) => {
      await expectInactive(app, (await bobsTokens(app)).id_token!);
    });

    it.for([
      ['garbage', 'not-a-token'],
      ['three empty parts', '..'],
      ['five parts of garbage', 'a.b.c.d.e'],
      ['an unsigned JWT', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.'],
    ] as const)('answers inactive for %s', async ([_name, token], { app }) => {
      await expectInactive(app, token);
    });
  });

  describe('refresh tokens', () => {
    it('answers a live refresh token with scope, client, subject and expiry', async ({
      app,
      services,
    }) => {
      const tokens = await bobsTokens(app);
      const response = await introspectAsResourceServer(app, tokens.refresh_token!);
      expect(response.statusCode).toBe(200);
      const body = response.json<Record<string, unknown>>();
      expect(body).toEqual({
        active: true,
        scope: 'openid profile email regions',
        client_id: DemoClientId.public,
        sub: String(ids.users.bob),
        exp: expect.any(Number),
        iss: services.issuer,
      });
      const lifetime = services.config.REFRESH_TOKEN_TTL_SECONDS;
      expect(Number(body.exp)).toBeGreaterThan(seconds() + lifetime - 60);
      expect(Number(body.exp)).toBeLessThanOrEqual(seconds() + lifetime);
    });

    it('answers inactive for a rotated refresh token and active for its successor', async ({
      app,
    }) => {
      const tokens = await bobsTokens(app);
      const refreshed = await refreshRequest(app, DemoClientId.public, tokens.refresh_token!);
      expect(refreshed.statusCode).toBe(200);
      const next = refreshed.json<TokenResponse>();
      await expectInactive(app, tokens.refresh_token!);
      // Asking about the old token is no replay: the family lives on.
      await expectActive(app, next.refresh_token!);
      await expectActive(app, next.access_token);
    });

    it('answers inactive for every token of a family revoked at /oauth/revoke', async ({ app }) => {
      const tokens = await bobsTokens(app);
      const revoked = await postForm(app, '/oauth/revoke', {
        token: tokens.refresh_token!,
        client_id: DemoClientId.public,
      });
      expect(revoked.statusCode).toBe(200);
      await expectInactive(app, tokens.refresh_token!);
      await expectInactive(app, tokens.access_token);
    });

    it('answers inactive for an expired refresh token of a live family', async ({
      app,
      services,
    }) => {
      const tokens = await bobsTokens(app);
      const live = await services.refreshTokens.open(tokens.refresh_token!);
      const expired = await services.refreshTokens.seal({
        ...live!,
        expiresAt: seconds() - 1,
      });
      await expectInactive(app, expired);
      await expectActive(app, tokens.refresh_token!);
    });

    it('answers inactive for a tampered refresh token', async ({ app }) => {
      const tokens = await bobsTokens(app);
      const [header, key, iv, ciphertext, tag] = tokens.refresh_token!.split('.');
      // One byte of the ciphertext changed: its authentication fails.
      const flipped = Buffer.from(ciphertext!, 'base64url');
      flipped[0]! ^= 1;
      const tampered = [header, key, iv, flipped.toString('base64url'), tag].join('.');
      await expectInactive(app, tampered);
    });
  });

  it('answers inactive for every token of a client whose grants were ended (deactivated)', async ({
    app,
    registerClient,
    services,
  }) => {
    await registerClient({ clientId: 'introspect-ended' });
    const tokens = await tokensFor(app, { clientId: 'introspect-ended', userId: ids.users.bob });
    await expectActive(app, tokens.access_token);
    await services.grantRevocation.endClientGrants('introspect-ended', new Date());
    await expectInactive(app, tokens.access_token);
    await expectInactive(app, tokens.refresh_token!);
  });

  describe('client authentication', () => {
    it('accepts client_secret_post as well', async ({ app }) => {
      const tokens = await bobsTokens(app);
      const response = await introspect(app, {
        token: tokens.access_token,
        client_id: DemoClientId.confidential,
        client_secret: DEMO_CLIENT_SECRET,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ active: true });
    });

    it('refuses a public client with 401 invalid_client, telling it nothing of the token', async ({
      app,
    }) => {
      const tokens = await bobsTokens(app);
      const response = await introspect(app, {
        token: tokens.access_token,
        client_id: DemoClientId.public,
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'invalid_client' });
      expect(response.body).not.toContain('active');
      // Basic with an empty password is how some libraries present a public client.
      const viaBasic = await introspect(
        app,
        { token: tokens.access_token },
        { authorization: basicAuth(DemoClientId.public, '') },
      );
      expect(viaBasic.statusCode).toBe(401);
      expect(viaBasic.headers['www-authenticate']).toMatch(/^Basic /);
    });

    it('refuses a wrong secret and a request without credentials with 401 invalid_client', async ({
      app,
    }) => {
      await expectClientCredentialsRequired(endpoint(app));
    });
  });

  describe('bad requests', () => {
    it('requires the token parameter: invalid_request', async ({ app }) => {
      const response = await introspect(app, {}, { authorization: confidentialBasic() });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'invalid_request',
        error_description: 'token is required',
      });
    });

    it('accepts form-encoded bodies only', async ({ app }) => {
      const response = await endpoint(app).postJson(
        { token: 'x' },
        { authorization: confidentialBasic() },
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request' });
    });

    it('refuses a parameter sent twice', async ({ app }) => {
      const response = await endpoint(app).postRaw('token=a&token=b', {
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

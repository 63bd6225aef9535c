import { generateKeyPairSync } from 'node:crypto';
import { DEMO_CLIENT_SECRET, DemoClientId, DemoUserEmail } from '@foodshare/domain';
import { SignJWT } from 'jose';
import * as client from 'openid-client';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';
import {
  authorizeInBrowser,
  FormBrowser,
  redeem,
  relyingParty,
  startAuthorization,
} from '@foodshare/relying-party';

test.override('listen', { scope: 'file' }, true);

// demo-confidential is the resource server, which may introspect another client's tokens.
test.override(
  'appEnv',
  { scope: 'file' },
  {
    INTROSPECTION_RESOURCE_SERVERS: DemoClientId.confidential,
  },
);

/**
 * Introspection (RFC 7662) as openid-client performs it, on a real socket: an app (demo-public)
 * signs Alice in, and a resource server (demo-confidential) asks about the tokens the app
 * presents to it. The library checks the endpoint from discovery and the response's shape.
 */
describe('conformance with openid-client: token introspection', () => {
  let spa: client.Configuration;

  test.beforeAll(async ({ origin }) => {
    spa = await relyingParty(origin, DemoClientId.public);
  });

  const resourceServer = (origin: string, method: 'client_secret_basic' | 'client_secret_post') =>
    relyingParty(origin, DemoClientId.confidential, { method, secret: DEMO_CLIENT_SECRET });

  async function signInAlice(origin: string) {
    const started = await startAuthorization(spa);
    const callback = await authorizeInBrowser(
      new FormBrowser(origin),
      started,
      DemoUserEmail.alice,
    );
    return redeem(spa, started, callback);
  }

  it('finds the endpoint and its client authentication methods in discovery', async ({
    origin,
  }) => {
    const metadata = (await resourceServer(origin, 'client_secret_basic')).serverMetadata();
    expect(metadata.introspection_endpoint).toBe(`${origin}/oauth/introspect`);
    expect(metadata.introspection_endpoint_auth_methods_supported).toEqual([
      'client_secret_basic',
      'client_secret_post',
    ]);
  });

  it.for(['client_secret_basic', 'client_secret_post'] as const)(
    'answers live access and refresh tokens of another client (%s)',
    async (method, { origin }) => {
      const config = await resourceServer(origin, method);
      const tokens = await signInAlice(origin);
      const sub = String(ids.users.alice);

      const access = await client.tokenIntrospection(config, tokens.access_token, {
        token_type_hint: 'access_token',
      });
      expect(access).toMatchObject({
        active: true,
        client_id: DemoClientId.public,
        token_type: 'Bearer',
        sub,
        aud: DemoClientId.public,
        iss: origin,
        scope: tokens.scope,
      });
      expect(access.exp).toBeGreaterThan(Math.floor(Date.now() / 1000));

      const refresh = await client.tokenIntrospection(config, tokens.refresh_token!, {
        token_type_hint: 'refresh_token',
      });
      expect(refresh).toMatchObject({ active: true, client_id: DemoClientId.public, sub });
    },
  );

  it('answers inactive, and nothing more, once the app revoked the tokens', async ({ origin }) => {
    const config = await resourceServer(origin, 'client_secret_basic');
    const tokens = await signInAlice(origin);
    await client.tokenRevocation(spa, tokens.refresh_token!);
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      expect(await client.tokenIntrospection(config, token)).toEqual({ active: false });
    }
  });

  it('answers inactive for a rotated refresh token', async ({ origin }) => {
    const config = await resourceServer(origin, 'client_secret_basic');
    const tokens = await signInAlice(origin);
    const refreshed = await client.refreshTokenGrant(spa, tokens.refresh_token!);
    expect(await client.tokenIntrospection(config, tokens.refresh_token!)).toEqual({
      active: false,
    });
    expect(await client.tokenIntrospection(config, refreshed.refresh_token!)).toMatchObject({
      active: true,
    });
  });

  it('answers inactive for an expired and for a foreign access token', async ({
    origin,
    services,
  }) => {
    const config = await resourceServer(origin, 'client_secret_post');
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      sub: String(ids.users.alice),
      aud: DemoClientId.public,
      client_id: DemoClientId.public,
      scope: 'openid',
    };
    const expired = await services.keys.signJwt(
      { ...claims, jti: 'conformance-expired', iat: now - 3700, exp: now - 100 },
      { typ: 'at+jwt' },
    );
    const foreign = await new SignJWT({ ...claims, jti: 'conformance-foreign' })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'foreign-key' })
      .setIssuer('https://issuer.example')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    for (const token of [expired, foreign]) {
      expect(await client.tokenIntrospection(config, token)).toEqual({ active: false });
    }
  });

  it('refuses the public app itself with invalid_client', async ({ origin }) => {
    const tokens = await signInAlice(origin);
    await expect(client.tokenIntrospection(spa, tokens.access_token)).rejects.toMatchObject({
      error: 'invalid_client',
      status: 401,
    });
  });
});

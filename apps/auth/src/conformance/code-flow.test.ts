import { DEMO_CLIENT_SECRET, DemoClientId, DemoUserEmail } from '@foodshare/domain';
import * as client from 'openid-client';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';
import {
  authorizeInBrowser,
  type ClientAuthMethod,
  FormBrowser,
  redeem,
  relyingParty,
  startAuthorization,
} from '@foodshare/relying-party';

test.override('listen', { scope: 'file' }, true);

/**
 * The authorization code flow as a certified relying-party library (openid-client) performs it,
 * against the real server on a real socket: discovery, PKCE, the RFC 9207 `iss` check, the code
 * exchange with each client authentication method, ID token validation, userinfo and refresh.
 */
describe('conformance with openid-client: the authorization code flow', () => {
  it('discovers the provider from its issuer URL', async ({ origin }) => {
    const config = await relyingParty(origin, DemoClientId.public);
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(origin);
    expect(metadata.authorization_endpoint).toBe(`${origin}/oauth/authorize`);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    expect(metadata.supportsPKCE()).toBe(true);
  });

  const clients: [string, string, ClientAuthMethod][] = [
    ['demo-public with PKCE (no client authentication)', DemoClientId.public, 'none'],
    [
      'demo-confidential with PKCE and client_secret_basic',
      DemoClientId.confidential,
      'client_secret_basic',
    ],
    [
      'demo-confidential with PKCE and client_secret_post',
      DemoClientId.confidential,
      'client_secret_post',
    ],
  ];

  it.for(clients)(
    'completes the full code flow for %s',
    async ([_name, clientId, method], { origin }) => {
      const config = await relyingParty(origin, clientId, { method, secret: DEMO_CLIENT_SECRET });
      const browser = new FormBrowser(origin);
      const started = await startAuthorization(config);
      const callback = await authorizeInBrowser(browser, started, DemoUserEmail.alice);
      expect(browser.pagesShown).toEqual(['login', 'consent']);
      const tokens = await redeem(config, started, callback);

      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      expect(tokens.expires_in).toBe(3600);
      expect(tokens.refresh_token).toEqual(expect.any(String));
      const claims = tokens.claims();
      expect(claims).toMatchObject({
        iss: origin,
        sub: String(ids.users.alice),
        aud: clientId,
        nonce: started.nonce,
      });
      expect(claims?.auth_time).toEqual(expect.any(Number));
    },
  );

  it('validates the ID token: issuer, audience, signature by the JWKS, nonce, at_hash', async ({
    origin,
  }) => {
    const config = await relyingParty(origin, DemoClientId.public);
    const started = await startAuthorization(config);
    const callback = await authorizeInBrowser(
      new FormBrowser(origin),
      started,
      DemoUserEmail.alice,
    );
    const tokens = await redeem(config, started, callback);
    const claims = tokens.claims();
    expect(claims?.nonce).toBe(started.nonce);
    expect(claims?.at_hash).toEqual(expect.any(String));
    // The library refuses an ID token whose nonce is not the one it sent.
    const again = await startAuthorization(config);
    const callbackAgain = await authorizeInBrowser(
      new FormBrowser(origin),
      again,
      DemoUserEmail.alice,
    );
    await expect(
      redeem(config, { ...again, nonce: client.randomNonce() }, callbackAgain),
    ).rejects.toMatchObject({
      code: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
      cause: { cause: { claim: 'nonce' } },
    });
  });

  it('sends no nonce in the ID token when the request had none', async ({ origin }) => {
    const config = await relyingParty(origin, DemoClientId.public);
    const started = await startAuthorization(config, {}, { nonce: false });
    const callback = await authorizeInBrowser(
      new FormBrowser(origin),
      started,
      DemoUserEmail.alice,
    );
    const tokens = await redeem(config, started, callback);
    expect(tokens.claims()?.nonce).toBeUndefined();
  });

  it('serves userinfo by GET and by POST, with the subject of the ID token', async ({ origin }) => {
    const config = await relyingParty(origin, DemoClientId.public);
    const started = await startAuthorization(config);
    const callback = await authorizeInBrowser(
      new FormBrowser(origin),
      started,
      DemoUserEmail.alice,
    );
    const tokens = await redeem(config, started, callback);
    const sub = tokens.claims()?.sub ?? '';
    const byGet = await client.fetchUserInfo(config, tokens.access_token, sub);
    expect(byGet).toMatchObject({ sub, email: DemoUserEmail.alice, email_verified: true });
    expect(byGet.region_ids).toEqual(expect.arrayContaining([String(3)]));

    const userinfoUrl = new URL(config.serverMetadata().userinfo_endpoint ?? '');
    const byPost = await client.fetchProtectedResource(
      config,
      tokens.access_token,
      userinfoUrl,
      'POST',
    );
    expect(byPost.status).toBe(200);
    expect(await byPost.json()).toEqual(byGet);
  });

  it('refreshes with rotation: a new refresh token each time, the old one then refused', async ({
    origin,
  }) => {
    const config = await relyingParty(origin, DemoClientId.confidential, {
      method: 'client_secret_basic',
      secret: DEMO_CLIENT_SECRET,
    });
    const started = await startAuthorization(config);
    const callback = await authorizeInBrowser(
      new FormBrowser(origin),
      started,
      DemoUserEmail.alice,
    );
    const first = await redeem(config, started, callback);
    const firstClaims = first.claims();
    const second = await client.refreshTokenGrant(config, first.refresh_token ?? '');
    expect(second.refresh_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    // OIDC Core 12.2: same subject, audience and auth_time; no nonce.
    expect(second.claims()).toMatchObject({
      sub: firstClaims?.sub,
      aud: firstClaims?.aud,
      auth_time: firstClaims?.auth_time,
    });
    expect(second.claims()?.nonce).toBeUndefined();
    await expect(
      client.fetchUserInfo(config, second.access_token, firstClaims?.sub ?? ''),
    ).resolves.toMatchObject({ sub: firstClaims?.sub });

    await expect(client.refreshTokenGrant(config, first.refresh_token ?? '')).rejects.toMatchObject(
      { error: 'invalid_grant' },
    );
  });
});

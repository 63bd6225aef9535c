import { DEMO_REDIRECT_URI, DemoUserEmail } from '@foodshare/domain';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { startLogoutReceiver } from '../test-support/logout-receiver.ts';
import { registerTestClient } from '../test-support/token-helpers.ts';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';
import { authorizeInBrowser, FormBrowser, redeem, relyingParty } from '@foodshare/relying-party';

test.override('listen', { scope: 'file' }, true);
// The receiver listens on loopback, which only this setting lets the server reach.
test.override('appEnv', { scope: 'file' }, { BACKCHANNEL_LOGOUT_ALLOWED_HOSTS: '127.0.0.1' });

const CLIENT_ID = 'journey-rp';
const SECRET = 'journey-secret-of-the-relying-party';
const SIGNED_OUT = 'http://localhost:9999/signed-out';
const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/**
 * The whole life of a relying party's sign-in, as an application team integrates it with a
 * certified client library (openid-client) against the real server on a real socket: a pushed
 * authorization request, userinfo, introspection by a resource server, RP-initiated logout with
 * a back-channel logout token to the client's own receiver, and the token inactive afterwards.
 */
describe('conformance with openid-client: a relying party from sign-in to logout', () => {
  let receiver: Awaited<ReturnType<typeof startLogoutReceiver>>;

  test.beforeAll(async ({ app }) => {
    receiver = await startLogoutReceiver();
    await registerTestClient(
      app,
      {
        clientId: CLIENT_ID,
        postLogoutRedirectUris: [SIGNED_OUT],
        backchannelLogoutUri: `${receiver.origin}/backchannel-logout`,
        requirePushedAuthorizationRequests: true,
      },
      SECRET,
    );
  });

  test.afterAll(async () => {
    await receiver.close();
  });

  it('signs in through PAR, is introspected, logs out, and its token is inactive after', async ({
    origin,
  }) => {
    const config = await relyingParty(origin, CLIENT_ID, {
      method: 'client_secret_basic',
      secret: SECRET,
    });

    // Sign-in through a pushed authorization request.
    const codeVerifier = client.randomPKCECodeVerifier();
    const started = {
      codeVerifier,
      state: client.randomState(),
      nonce: client.randomNonce(),
      url: new URL('about:blank'),
    };
    started.url = await client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: DEMO_REDIRECT_URI,
      scope: 'openid profile email',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: started.state,
      nonce: started.nonce,
    });
    const browser = new FormBrowser(origin);
    const tokens = await redeem(
      config,
      started,
      await authorizeInBrowser(browser, started, DemoUserEmail.alice),
    );
    const subject = String(ids.users.alice);
    expect(tokens.claims()?.sub).toBe(subject);

    // Userinfo, and introspection as the resource server (here the same confidential client).
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, subject);
    expect(userinfo).toMatchObject({ sub: subject, email: DemoUserEmail.alice });
    const live = await client.tokenIntrospection(config, tokens.access_token);
    expect(live).toMatchObject({ active: true, sub: subject, client_id: CLIENT_ID });

    // RP-initiated logout with the ID token as hint.
    const logout = await browser.request(
      client.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: SIGNED_OUT,
        state: 'bye',
      }).href,
    );
    expect(logout.status).toBe(303);
    expect(logout.headers.get('location')).toBe(`${SIGNED_OUT}?state=bye`);

    // The client's back-channel receiver gets a logout token signed by the published keys.
    const delivered = await receiver.nth(1);
    expect(delivered.path).toBe('/backchannel-logout');
    const { payload, protectedHeader } = await jwtVerify(
      delivered.form.get('logout_token') ?? '',
      createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!)),
      { issuer: origin, audience: CLIENT_ID, typ: 'logout+jwt' },
    );
    expect(protectedHeader.typ).toBe('logout+jwt');
    expect(payload.sub).toBe(subject);
    expect(payload.events).toEqual({ [BACKCHANNEL_LOGOUT_EVENT]: {} });
    expect(payload).not.toHaveProperty('nonce');

    // The sign-out ended the grant's tokens: the access token and the refresh token are dead.
    const afterwards = await client.tokenIntrospection(config, tokens.access_token);
    expect(afterwards.active).toBe(false);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });
});

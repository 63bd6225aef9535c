import {
  DEMO_CLIENT_SECRET,
  DEMO_REDIRECT_URI,
  DemoClientId,
  DemoUserEmail,
} from '@foodshare/domain';
import * as client from 'openid-client';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';
import {
  authorizeInBrowser,
  type ClientAuthMethod,
  FormBrowser,
  redeem,
  relyingParty,
  type StartedAuthorization,
} from '@foodshare/relying-party';

test.override('listen', { scope: 'file' }, true);

/** The authorization request as openid-client pushes it (RFC 9126), then the browser's part. */
async function startPushedAuthorization(
  config: client.Configuration,
): Promise<StartedAuthorization> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = await client.buildAuthorizationUrlWithPAR(config, {
    redirect_uri: DEMO_REDIRECT_URI,
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, codeVerifier, state, nonce };
}

/**
 * Pushed Authorization Requests as a certified relying-party library performs them, against the
 * real server on a real socket: discovery names the endpoint, the library pushes with the
 * client's authentication, sends the browser with the request_uri alone, and the user signs in.
 */
describe('conformance with openid-client: pushed authorization requests', () => {
  test.beforeAll(async ({ registerClient }) => {
    await registerClient({
      clientId: 'par-conformance',
      requirePushedAuthorizationRequests: true,
    });
  });

  it('discovers the pushed authorization request endpoint', async ({ origin }) => {
    const metadata = (await relyingParty(origin, DemoClientId.public)).serverMetadata();
    expect(metadata.pushed_authorization_request_endpoint).toBe(`${origin}/oauth/par`);
    expect(metadata.require_pushed_authorization_requests).toBe(false);
  });

  const clients: [string, string, ClientAuthMethod][] = [
    ['a public client', DemoClientId.public, 'none'],
    [
      'a confidential client by client_secret_basic',
      DemoClientId.confidential,
      'client_secret_basic',
    ],
    ['a client registered to require PAR', 'par-conformance', 'none'],
  ];

  it.for(clients)(
    'signs in end to end through PAR for %s',
    async ([_name, clientId, method], { origin }) => {
      const config = await relyingParty(origin, clientId, { method, secret: DEMO_CLIENT_SECRET });
      const started = await startPushedAuthorization(config);
      // Only client_id and request_uri travel through the browser.
      expect([...started.url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
      expect(started.url.searchParams.get('request_uri')).toMatch(
        /^urn:ietf:params:oauth:request_uri:/,
      );
      const browser = new FormBrowser(origin);
      const callback = await authorizeInBrowser(browser, started, DemoUserEmail.alice);
      expect(browser.pagesShown).toEqual(['login', 'consent']);
      const tokens = await redeem(config, started, callback);
      expect(tokens.claims()).toMatchObject({
        iss: origin,
        sub: String(ids.users.alice),
        aud: clientId,
        nonce: started.nonce,
      });
      expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
    },
  );

  it('refuses the same request_uri a second time', async ({ origin }) => {
    const config = await relyingParty(origin, DemoClientId.public);
    const started = await startPushedAuthorization(config);
    await authorizeInBrowser(new FormBrowser(origin), started, DemoUserEmail.alice);
    const again = await fetch(started.url, { redirect: 'manual' });
    expect(again.status).toBe(400);
    expect(again.headers.get('location')).toBeNull();
  });

  it('surfaces a refused push as the library’s error for the endpoint’s answer', async ({
    origin,
  }) => {
    const config = await relyingParty(origin, DemoClientId.public);
    await expect(
      client.buildAuthorizationUrlWithPAR(config, {
        redirect_uri: 'https://evil.example/callback',
        scope: 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      }),
    ).rejects.toMatchObject({ error: 'invalid_request', status: 400 });
  });
});

import { createOAuthClient, DEMO_REDIRECT_URI, DemoUserEmail } from '@foodshare/domain';
import * as client from 'openid-client';
import { describe, expect, it, test } from '../test-support/fixtures.ts';
import {
  authorizeInBrowser,
  FormBrowser,
  redeem,
  relyingParty,
  ShownPage,
  startAuthorization,
} from '@foodshare/relying-party';

test.override('listen', { scope: 'file' }, true);

const CLIENT_ID = 'logout-rp';
const SIGNED_OUT = 'http://localhost:9999/signed-out';

/**
 * RP-Initiated Logout 1.0 as openid-client performs it: the end_session_endpoint from
 * discovery, the URL from buildEndSessionUrl, and a browser that signed in through a real
 * code flow, on a real socket.
 */
describe('conformance with openid-client: RP-Initiated Logout', () => {
  test.beforeAll(async ({ app }) => {
    await createOAuthClient(
      app.orm.em.fork(),
      {
        clientId: CLIENT_ID,
        name: 'Logout RP',
        confidential: false,
        redirectUris: [DEMO_REDIRECT_URI],
        postLogoutRedirectUris: [SIGNED_OUT],
        scopes: ['openid', 'profile', 'email', 'regions'],
        grantTypes: ['authorization_code'],
      },
      { pepper: '' },
    );
  });

  /** A browser signed in through the code flow, and the ID token the client got. */
  async function signedIn(origin: string, config: client.Configuration) {
    const browser = new FormBrowser(origin);
    const started = await startAuthorization(config);
    const callback = await authorizeInBrowser(browser, started, DemoUserEmail.alice);
    const tokens = await redeem(config, started, callback);
    if (!tokens.id_token) throw new Error('no ID token');
    return { browser, idToken: tokens.id_token };
  }

  /** Whether the browser is still signed in: the connected apps page or a redirect to login. */
  async function stillSignedIn(browser: FormBrowser): Promise<boolean> {
    const response = await browser.request('/connected-apps');
    return response.status === 200;
  }

  it('discovers the end_session_endpoint', async ({ origin }) => {
    const config = await relyingParty(origin, CLIENT_ID);
    expect(config.serverMetadata().end_session_endpoint).toBe(`${origin}/oauth/logout`);
  });

  it('logs out at once with the ID token as hint and returns with state', async ({ origin }) => {
    const config = await relyingParty(origin, CLIENT_ID);
    const { browser, idToken } = await signedIn(origin, config);
    expect(await stillSignedIn(browser)).toBe(true);
    const state = client.randomState();
    const url = client.buildEndSessionUrl(config, {
      id_token_hint: idToken,
      post_logout_redirect_uri: SIGNED_OUT,
      state,
    });
    const response = await browser.request(url.href);
    expect(response.status).toBe(303);
    const back = new URL(String(response.headers.get('location')));
    expect(`${back.origin}${back.pathname}`).toBe(SIGNED_OUT);
    expect(back.searchParams.get('state')).toBe(state);
    expect(await stillSignedIn(browser)).toBe(false);
  });

  it('asks the user first without a hint, then logs out and returns with state', async ({
    origin,
  }) => {
    const config = await relyingParty(origin, CLIENT_ID);
    const { browser } = await signedIn(origin, config);
    const url = client.buildEndSessionUrl(config, {
      post_logout_redirect_uri: SIGNED_OUT,
      state: 'no-hint',
    });
    const asked = await browser.request(url.href);
    expect(asked.status).toBe(200);
    const page = new ShownPage(await asked.text());
    expect(await stillSignedIn(browser)).toBe(true);

    const confirmed = await browser.request(page.action, { form: page.hiddenFields });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${SIGNED_OUT}?state=no-hint`);
    expect(await stillSignedIn(browser)).toBe(false);
  });
});

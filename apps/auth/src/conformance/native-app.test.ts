import { DemoUserEmail } from '@foodshare/domain';
import * as client from 'openid-client';
import { startLoopbackRedirectReceiver } from '../test-support/loopback-redirect-receiver.ts';
import { ALL_SCOPES } from '../test-support/token-helpers.ts';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';
import {
  authorizeInBrowser,
  FormBrowser,
  redeem,
  relyingParty,
  startAuthorization,
} from '@foodshare/relying-party';

test.override('listen', { scope: 'file' }, true);

/**
 * A native app as RFC 8252 describes it, with openid-client on a real socket: registered with
 * a loopback redirect URI without port, it listens on a port the operating system hands it at
 * run time, sends the browser with that port in redirect_uri, takes the response at its
 * listener and redeems the code there (openid-client derives redirect_uri from that URL).
 */
describe('conformance with openid-client: a native app on an ephemeral loopback port (RFC 8252)', () => {
  test.beforeAll(async ({ registerClient }) => {
    for (const [clientId, redirectUri] of [
      ['native-ip', 'http://127.0.0.1/callback'],
      ['native-localhost', 'http://localhost/callback'],
    ] as const) {
      await registerClient({
        clientId,
        redirectUris: [redirectUri],
        scopes: ALL_SCOPES,
        grantTypes: ['authorization_code', 'refresh_token'],
      });
    }
  });

  /** The browser's round trip, ending where the app listens; what the listener received. */
  async function signIn(
    origin: string,
    config: client.Configuration,
    receiver: Awaited<ReturnType<typeof startLoopbackRedirectReceiver>>,
    consent: { decision?: 'allow' | 'deny' } = {},
  ) {
    const started = await startAuthorization(config, { redirect_uri: receiver.redirectUri });
    const browser = new FormBrowser(origin);
    const callback = await authorizeInBrowser(browser, started, DemoUserEmail.alice, consent);
    const landed = await fetch(callback, { signal: AbortSignal.timeout(5000) });
    expect(landed.status).toBe(200);
    return { started, received: await receiver.received };
  }

  it.for([
    ['native-ip', { host: '127.0.0.1' }],
    ['native-localhost', { host: 'localhost', name: 'localhost' }],
  ] as const)(
    '%s: signs the user in at the port it listens on, then refreshes',
    async ([clientId, listen], { origin }) => {
      const receiver = await startLoopbackRedirectReceiver(listen);
      try {
        const config = await relyingParty(origin, clientId);
        const { started, received } = await signIn(origin, config, receiver);
        expect(`${received.origin}${received.pathname}`).toBe(receiver.redirectUri);
        const tokens = await redeem(config, started, received);
        expect(tokens.claims()).toMatchObject({ sub: String(ids.users.alice), aud: clientId });
        const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
        expect(refreshed.access_token).not.toBe(tokens.access_token);
      } finally {
        await receiver.close();
      }
    },
  );

  it('receives a refusal at the port it listens on too', async ({ origin }) => {
    const receiver = await startLoopbackRedirectReceiver();
    try {
      const config = await relyingParty(origin, 'native-ip');
      const { started, received } = await signIn(origin, config, receiver, { decision: 'deny' });
      expect(received.port).toBe(String(receiver.port));
      await expect(redeem(config, started, received)).rejects.toMatchObject({
        error: 'access_denied',
      });
    } finally {
      await receiver.close();
    }
  });
});

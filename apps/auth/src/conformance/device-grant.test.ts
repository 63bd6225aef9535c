import { DEVICE_CODE_GRANT_TYPE, DemoRegionId, DemoUserEmail } from '@foodshare/domain';
import { FormBrowser, personDecides } from '@foodshare/relying-party';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import type { SignedInClient } from '@foodshare/server-kit/test-support';
import type { AuthApp } from '../app.ts';
import { allowOnConsentPage, formBody } from '../test-support/authorization-helpers.ts';
import { clientBudgetKeys } from '../clients/client-endpoint.ts';
import { servicesOf } from '../test-support/build-test-app.ts';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';
import { basicAuth, postForm, tokenRequest } from '../test-support/token-helpers.ts';

const USER_CODE_ATTEMPTS = 10;
const ACCOUNT_CODE_ATTEMPTS = 25;

test.override('listen', { scope: 'file' }, true);
// A one-second interval keeps the polls short; a small per-address budget of user codes.
test.override(
  'appEnv',
  { scope: 'file' },
  {
    DEVICE_CODE_INTERVAL_SECONDS: '1',
    DEVICE_USER_CODE_ATTEMPTS_PER_IP_PER_HOUR: String(USER_CODE_ATTEMPTS),
    DEVICE_USER_CODE_ATTEMPTS_PER_ACCOUNT_PER_HOUR: String(ACCOUNT_CODE_ATTEMPTS),
  },
);

const PUBLIC = 'device-public';
const CONFIDENTIAL = 'device-confidential';
const OTHER = 'device-other';
const REGIONAL = 'device-regional';
const ENDED = 'device-ended';
const BUSY = 'device-busy';
const SECRET = 'device-confidential-secret-0123456789';
const DEVICE_GRANTS = ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT_TYPE];

interface Started {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** The device's request, sent by hand (RFC 8628 3.1). */
async function startDevice(app: AuthApp, clientId: string): Promise<Started> {
  const response = await postForm(app, '/oauth/device_authorization', {
    client_id: clientId,
    scope: 'openid profile',
  });
  expect(response.statusCode).toBe(200);
  return response.json<Started>();
}

/** One poll of the token endpoint by hand (RFC 8628 3.4). */
const poll = (app: AuthApp, deviceCode: string, clientId = PUBLIC) =>
  tokenRequest(app, {
    grant_type: DEVICE_CODE_GRANT_TYPE,
    device_code: deviceCode,
    client_id: clientId,
  });

async function expectPollError(app: AuthApp, deviceCode: string, error: string, clientId = PUBLIC) {
  const response = await poll(app, deviceCode, clientId);
  expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
  expect(response.json()).toMatchObject({ error });
}

/** A signed-in person's POST of the verification form, from an address of the test's choice. */
function enterUserCode(
  app: AuthApp,
  person: SignedInClient,
  userCode: string,
  remoteAddress: string,
) {
  return app.inject({
    method: 'POST',
    url: '/oauth/device',
    remoteAddress,
    cookies: person.cookies,
    ...formBody({ user_code: userCode, csrf: person.headers['x-csrf-token'] }),
  });
}

async function approveInBrowser(
  origin: string,
  url: string,
  act: ReturnType<typeof personDecides>,
) {
  const browser = new FormBrowser(origin);
  const end = await browser.walk(url, act);
  if (end instanceof URL) throw new Error(`left for ${end.href}`);
  return { browser, page: end };
}

/**
 * The device authorization grant (RFC 8628, docs/oauth.md §12) as openid-client drives it from
 * the device, with the person's part on the real pages, and the attacks on it.
 */
describe('conformance with openid-client: the device authorization grant', () => {
  test.beforeAll(async ({ registerClient }) => {
    await registerClient({
      clientId: PUBLIC,
      name: 'Kiosk at the pick-up',
      grantTypes: DEVICE_GRANTS,
    });
    await registerClient({ clientId: OTHER, grantTypes: DEVICE_GRANTS });
    await registerClient({ clientId: ENDED, grantTypes: DEVICE_GRANTS });
    await registerClient({ clientId: BUSY, grantTypes: DEVICE_GRANTS });
    await registerClient({
      clientId: REGIONAL,
      grantTypes: DEVICE_GRANTS,
      requiredRegionIds: [DemoRegionId.Musterstadt],
    });
    await registerClient({ clientId: CONFIDENTIAL, grantTypes: DEVICE_GRANTS }, SECRET);
  });

  it('advertises the endpoint and the grant type in discovery', async ({ origin }) => {
    const config = await client.discovery(new URL(origin), PUBLIC, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    const metadata = config.serverMetadata();
    expect(metadata.device_authorization_endpoint).toBe(`${origin}/oauth/device_authorization`);
    expect(metadata.grant_types_supported).toContain(DEVICE_CODE_GRANT_TYPE);
  });

  it('signs a public client in by the prefilled link, with DPoP-bound tokens in the connected apps', async ({
    origin,
  }) => {
    const config = await client.discovery(new URL(origin), PUBLIC, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    const started = await client.initiateDeviceAuthorization(config, {
      scope: 'openid profile offline_access',
    });
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started.verification_uri).toBe(`${origin}/oauth/device`);
    expect(started.verification_uri_complete).toBe(
      `${origin}/oauth/device?user_code=${started.user_code}`,
    );
    expect(started).toMatchObject({ expires_in: 600, interval: 1 });

    const { browser, page } = await approveInBrowser(
      origin,
      started.verification_uri_complete!,
      personDecides(DemoUserEmail.alice),
    );
    expect(browser.pagesShown).toEqual(['login', 'device', 'consent', 'other']);
    expect(page.html).toContain('id="device-approved"');

    const keyPair = await client.randomDPoPKeyPair('ES256');
    const DPoP = client.getDPoPHandle(config, keyPair);
    const tokens = await client.pollDeviceAuthorizationGrant(config, started, undefined, { DPoP });
    expect(tokens.token_type).toBe('dpop');
    expect(tokens.claims()!.sub).toBe(String(ids.users.alice));
    expect(decodeJwt(tokens.access_token).cnf).toEqual({ jkt: expect.any(String) });
    // A public client's refresh token is bound to the key: without its proof it is refused.
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, {
      DPoP,
    });
    expect(refreshed.access_token).not.toBe(tokens.access_token);

    // Listed with the user's other grants, where it can be revoked.
    const connected = await browser.request('/connected-apps');
    expect(await connected.text()).toContain('Kiosk at the pick-up');
  });

  it('signs a confidential client in by a code typed in lower case with a space', async ({
    origin,
  }) => {
    const config = await client.discovery(
      new URL(origin),
      CONFIDENTIAL,
      undefined,
      client.ClientSecretBasic(SECRET),
      { execute: [client.allowInsecureRequests] },
    );
    const started = await client.initiateDeviceAuthorization(config, { scope: 'openid email' });
    const typed = ` ${started.user_code.toLowerCase().replace('-', ' ')} `;
    await approveInBrowser(
      origin,
      started.verification_uri,
      personDecides(DemoUserEmail.alice, { userCode: typed }),
    );
    const tokens = await client.pollDeviceAuthorizationGrant(config, started);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('openid email');
    expect(tokens.claims()!.email).toBe(DemoUserEmail.alice);
  });

  it('answers authorization_pending, then slow_down to a poll too soon, the interval grown by 5 s', async ({
    app,
  }) => {
    const started = await startDevice(app, PUBLIC);
    await expectPollError(app, started.device_code, 'authorization_pending');
    await expectPollError(app, started.device_code, 'slow_down');
    // Past the first interval (1 s) but not the grown one (6 s): still too soon.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await expectPollError(app, started.device_code, 'slow_down');
  });

  it('redeems an approved device code once: the second poll gets invalid_grant', async ({
    app,
    origin,
  }) => {
    const started = await startDevice(app, PUBLIC);
    await approveInBrowser(
      origin,
      started.verification_uri_complete,
      personDecides(DemoUserEmail.alice),
    );
    const first = await poll(app, started.device_code);
    expect(first.statusCode, first.body).toBe(200);
    // The redemption itself is one atomic take: of concurrent takers exactly one wins.
    const again = await startDevice(app, PUBLIC);
    const takes = await Promise.all(
      Array.from({ length: 10 }, () => servicesOf(app).devices.redeem(again.device_code)),
    );
    expect(takes.filter(Boolean)).toHaveLength(1);
    expect(first.json()).toMatchObject({ token_type: 'Bearer', scope: 'openid profile' });
    await expectPollError(app, started.device_code, 'invalid_grant');
  });

  it('voids an approval when the person revokes the app before the device redeems it', async ({
    app,
    signIn,
  }) => {
    const started = await startDevice(app, PUBLIC);
    const alice = await signIn('alice');
    const entered = await enterUserCode(app, alice, started.user_code, '192.0.2.20');
    const approved = await allowOnConsentPage(app, alice.cookies, entered);
    expect(approved.body).toContain('id="device-approved"');
    const revoked = await app.inject({
      method: 'DELETE',
      url: `/oauth/grants/${PUBLIC}`,
      cookies: alice.cookies,
      headers: alice.headers,
    });
    expect(revoked.statusCode).toBe(204);
    await expectPollError(app, started.device_code, 'invalid_grant');
  });

  it('voids an approved device code when the client’s grants end (the client deactivated)', async ({
    app,
    signIn,
  }) => {
    const started = await startDevice(app, ENDED);
    const alice = await signIn('alice');
    const entered = await enterUserCode(app, alice, started.user_code, '192.0.2.21');
    const approved = await allowOnConsentPage(app, alice.cookies, entered);
    expect(approved.body).toContain('id="device-approved"');
    await servicesOf(app).grantRevocation.endClientGrants(ENDED, new Date());
    await expectPollError(app, started.device_code, 'invalid_grant', ENDED);
  });

  it('spends a budget of its own on polls: a client out of token budget still polls, and the reverse', async ({
    app,
  }) => {
    const { config } = servicesOf(app);
    const started = await startDevice(app, BUSY);
    const tokenBudget = clientBudgetKeys.publicClientAtAddress(BUSY, '127.0.0.1');
    await app.kv.increment(
      tokenBudget,
      60_000,
      config.TOKEN_REQUESTS_PER_PUBLIC_CLIENT_AND_IP_PER_MINUTE,
    );
    await expectPollError(app, started.device_code, 'authorization_pending', BUSY);
    await app.kv.delete(tokenBudget);
    const pollBudget = clientBudgetKeys.publicClientDevicePollsAtAddress(BUSY, '127.0.0.1');
    await app.kv.increment(
      pollBudget,
      60_000,
      config.TOKEN_REQUESTS_PER_PUBLIC_CLIENT_AND_IP_PER_MINUTE,
    );
    const refused = await poll(app, started.device_code, BUSY);
    expect(refused.statusCode).toBe(429);
    await app.kv.delete(pollBudget);
  });

  it('answers access_denied once the person denied, and the page says so', async ({
    app,
    origin,
  }) => {
    const started = await startDevice(app, PUBLIC);
    const { page } = await approveInBrowser(
      origin,
      started.verification_uri_complete,
      personDecides(DemoUserEmail.alice, { decision: 'deny' }),
    );
    expect(page.html).toContain('id="device-denied"');
    await expectPollError(app, started.device_code, 'access_denied');
  });

  it('holds a device to the client’s region gate, as the code flow: bob is refused, the device denied', async ({
    app,
    origin,
  }) => {
    const started = await startDevice(app, REGIONAL);
    const { browser } = await approveInBrowser(
      origin,
      started.verification_uri_complete,
      personDecides(DemoUserEmail.bob),
    );
    expect(browser.pagesShown).toEqual(['login', 'device', 'refused']);
    await expectPollError(app, started.device_code, 'access_denied', REGIONAL);
  });

  it('answers expired_token for an expired device code, and the page refuses its user code', async ({
    app,
    signIn,
  }) => {
    const { devices } = servicesOf(app);
    const { deviceCode, userCode } = await devices.issue(
      { clientId: PUBLIC, scopes: ['openid'] },
      Date.now() - devices.lifetimeMs,
    );
    await expectPollError(app, deviceCode, 'expired_token');
    const entered = await enterUserCode(app, await signIn('alice'), userCode, '192.0.2.10');
    expect(entered.statusCode).toBe(400);
    expect(entered.body).toContain('id="device-code-unknown"');
  });

  it('refuses another client’s device code (invalid_grant) and leaves it to its own client', async ({
    app,
  }) => {
    const started = await startDevice(app, PUBLIC);
    await expectPollError(app, started.device_code, 'invalid_grant', OTHER);
    await expectPollError(app, started.device_code, 'authorization_pending');
  });

  it('refuses a client not registered for the grant: unauthorized_client at both endpoints', async ({
    app,
    origin,
  }) => {
    const config = await client.discovery(
      new URL(origin),
      'demo-regional',
      undefined,
      client.None(),
      {
        execute: [client.allowInsecureRequests],
      },
    );
    await expect(
      client.initiateDeviceAuthorization(config, { scope: 'openid' }),
    ).rejects.toMatchObject({
      error: 'unauthorized_client',
    });
    const started = await startDevice(app, PUBLIC);
    await expectPollError(app, started.device_code, 'unauthorized_client', 'demo-regional');
    const confidential = await tokenRequest(
      app,
      { grant_type: DEVICE_CODE_GRANT_TYPE, device_code: started.device_code },
      { authorization: basicAuth('demo-confidential', 'wrong') },
    );
    expect(confidential.statusCode).toBe(401);
  });

  it('limits the user codes one address may enter, right or wrong, and each code is single use', async ({
    app,
    signIn,
  }) => {
    const started = await startDevice(app, PUBLIC);
    const person = await signIn('alice');
    const enter = (userCode: string, remoteAddress: string) =>
      enterUserCode(app, person, userCode, remoteAddress);
    const guesser = '203.0.113.7';
    for (let attempt = 0; attempt < USER_CODE_ATTEMPTS; attempt += 1) {
      expect((await enter('BCDF-GHJK', guesser)).statusCode).toBe(400);
    }
    const limited = await enter(started.user_code, guesser);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // The refused attempt used nothing up: from another address the right code goes on, once.
    const right = await enter(started.user_code, '198.51.100.8');
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toMatch(/^\/oauth\/consent\?request=/);
    // The consent screen names the client and says the device signs in: no redirect host.
    const consent = await app.inject({
      method: 'GET',
      url: String(right.headers.location),
      cookies: person.cookies,
      headers: { 'accept-language': 'en' },
    });
    expect(consent.body).toContain('Kiosk at the pick-up');
    expect(consent.body).toContain('the device you entered the code for signs in');
    expect((await enter(started.user_code, '198.51.100.8')).statusCode).toBe(400);
  });

  it('limits the user codes one account may enter, from however many addresses', async ({
    app,
    signIn,
  }) => {
    const started = await startDevice(app, PUBLIC);
    const guesser = await signIn('kim');
    // Each guess from an address of its own, all within the per-address limit.
    for (let attempt = 0; attempt < ACCOUNT_CODE_ATTEMPTS; attempt += 1) {
      const guess = await enterUserCode(app, guesser, 'BCDF-GHJK', `2001:db8:${attempt}::1`);
      expect(guess.statusCode).toBe(400);
    }
    const limited = await enterUserCode(app, guesser, started.user_code, '2001:db8:ffff::1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

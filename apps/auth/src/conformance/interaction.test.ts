import { DemoClientId, DemoUserEmail } from '@foodshare/domain';
import type * as client from 'openid-client';
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
 * The user-facing half of the flow through openid-client: remembered consent, the OIDC prompt
 * values, max_age and region gating, each checked the way the library checks the response.
 */
describe('conformance with openid-client: login, consent and prompts', () => {
  let config: client.Configuration;
  let browser: FormBrowser;

  test.beforeAll(async ({ origin }) => {
    config = await relyingParty(origin, DemoClientId.public);
  });

  test.beforeEach(async ({ origin, services }) => {
    browser = new FormBrowser(origin);
    for (const user of [ids.users.alice, ids.users.bob]) {
      for (const clientId of Object.values(DemoClientId))
        await services.consents.revoke(user, clientId);
    }
  });

  /** One authorization in the browser and the library's handling of the callback. */
  async function flow(
    parameters: Record<string, string> = {},
    options: { email?: string; remember?: boolean; maxAge?: number } = {},
  ) {
    const started = await startAuthorization(config, parameters);
    const shownBefore = browser.pagesShown.length;
    const callback = await authorizeInBrowser(
      browser,
      started,
      options.email ?? DemoUserEmail.alice,
      {
        remember: options.remember ?? false,
      },
    );
    const pages = browser.pagesShown.slice(shownBefore);
    const tokens = await redeem(
      config,
      started,
      callback,
      options.maxAge === undefined ? {} : { maxAge: options.maxAge },
    );
    return { pages, tokens, claims: tokens.claims() };
  }

  /** Only the browser part; for refusals, which the library turns into errors. */
  async function callbackOf(parameters: Record<string, string>, email = DemoUserEmail.alice) {
    const started = await startAuthorization(config, parameters);
    return { started, callback: await authorizeInBrowser(browser, started, email) };
  }

  it('skips the consent screen the second time once the consent was remembered', async () => {
    const first = await flow({}, { remember: true });
    expect(first.pages).toEqual(['login', 'consent']);
    const second = await flow();
    expect(second.pages).toEqual([]);
    expect(second.claims?.sub).toBe(String(ids.users.alice));
  });

  it('asks again without "remember this choice"', async () => {
    await flow();
    expect((await flow()).pages).toEqual(['consent']);
  });

  it('prompt=none with a session and remembered consent: tokens without any page', async () => {
    await flow({}, { remember: true });
    const silent = await flow({ prompt: 'none' });
    expect(silent.pages).toEqual([]);
    expect(silent.claims?.sub).toBe(String(ids.users.alice));
  });

  it('prompt=none without a session: the library receives login_required', async () => {
    const { started, callback } = await callbackOf({ prompt: 'none' });
    expect(browser.pagesShown).toEqual([]);
    await expect(redeem(config, started, callback)).rejects.toMatchObject({
      error: 'login_required',
    });
  });

  it('prompt=none without remembered consent: the library receives consent_required', async () => {
    await flow();
    const { started, callback } = await callbackOf({ prompt: 'none' });
    await expect(redeem(config, started, callback)).rejects.toMatchObject({
      error: 'consent_required',
    });
  });

  it('prompt=login shows the login page again and gives a newer auth_time', async () => {
    const first = await flow({}, { remember: true });
    // auth_time has a resolution of one second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await flow({ prompt: 'login' });
    expect(again.pages).toEqual(['login']);
    expect(again.claims?.auth_time).toBeGreaterThan(first.claims?.auth_time ?? Infinity);
  });

  it('prompt=consent shows the consent screen despite a remembered consent', async () => {
    await flow({}, { remember: true });
    expect((await flow({ prompt: 'consent' })).pages).toEqual(['consent']);
  });

  it('max_age: within it no login, auth_time checked by the library; max_age=0 forces a login', async () => {
    await flow({}, { remember: true });
    const within = await flow({ max_age: '300' }, { maxAge: 300 });
    expect(within.pages).toEqual([]);
    expect(within.claims?.auth_time).toEqual(expect.any(Number));
    const forced = await flow({ max_age: '0' }, { maxAge: 0 });
    expect(forced.pages).toEqual(['login']);
  });

  it('an exceeded max_age forces a fresh login', async () => {
    await flow({}, { remember: true });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const exceeded = await flow({ max_age: '1' }, { maxAge: 1 });
    expect(exceeded.pages).toEqual(['login']);
  });

  it('echoes the nonce exactly in the ID token', async () => {
    const nonce = 'n-0S6_WzA2Mj.~:%20';
    const started = await startAuthorization(config, { nonce });
    const callback = await authorizeInBrowser(browser, started, DemoUserEmail.alice);
    const tokens = await redeem(config, { ...started, nonce }, callback);
    expect(tokens.claims()?.nonce).toBe(nonce);
  });

  describe('region gating at demo-regional', () => {
    let regional: client.Configuration;

    test.beforeAll(async ({ origin }) => {
      regional = await relyingParty(origin, DemoClientId.regional);
    });

    it('refuses bob: the refusal page, no consent screen, then access_denied "User not in required regions"', async () => {
      const started = await startAuthorization(regional);
      const callback = await authorizeInBrowser(browser, started, DemoUserEmail.bob);
      expect(browser.pagesShown).toEqual(['login', 'refused']);
      await expect(redeem(regional, started, callback)).rejects.toMatchObject({
        error: 'access_denied',
        error_description: 'User not in required regions',
      });
    });

    it('refuses bob with prompt=none without any page: the library receives access_denied', async () => {
      // Signed in already (bob's session from a first, refused, round trip).
      await authorizeInBrowser(browser, await startAuthorization(regional), DemoUserEmail.bob);
      const shownBefore = browser.pagesShown.length;
      const started = await startAuthorization(regional, { prompt: 'none' });
      const callback = await authorizeInBrowser(browser, started, DemoUserEmail.bob);
      expect(browser.pagesShown.slice(shownBefore)).toEqual([]);
      await expect(redeem(regional, started, callback)).rejects.toMatchObject({
        error: 'access_denied',
        error_description: 'User not in required regions',
      });
    });

    it('admits alice', async () => {
      const started = await startAuthorization(regional);
      const callback = await authorizeInBrowser(browser, started, DemoUserEmail.alice);
      const tokens = await redeem(regional, started, callback);
      expect(tokens.claims()).toMatchObject({ sub: String(ids.users.alice), aud: 'demo-regional' });
    });
  });
});

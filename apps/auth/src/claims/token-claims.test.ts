import { hash } from 'node:crypto';
import { DEMO_REDIRECT_URI, DemoClientId, DemoUserEmail } from '@foodshare/domain';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { startLogoutReceiver } from '../test-support/logout-receiver.ts';
import {
  issueCode,
  pkcePair,
  refreshRequest,
  tokenRequest,
  type TokenResponse,
} from '../test-support/token-helpers.ts';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';
import {
  authorizeInBrowser,
  FormBrowser,
  redeem,
  relyingParty,
  type ShownPage,
  startAuthorization,
  userActs,
} from '@foodshare/relying-party';

test.override('listen', { scope: 'file' }, true);
test.override('appEnv', { scope: 'file' }, { BACKCHANNEL_LOGOUT_ALLOWED_HOSTS: '127.0.0.1' });

const SIGNED_OUT = 'http://localhost:9999/signed-out';

/** What only an ID token says: the rest of it are the claims userinfo answers. */
const ID_TOKEN_ONLY = ['iss', 'aud', 'azp', 'iat', 'exp', 'auth_time', 'nonce', 'at_hash', 'sid'];

function userClaimsOf(idToken: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(idToken).filter(([name]) => !ID_TOKEN_ONLY.includes(name)),
  );
}

/**
 * docs/oauth.md §4.2, §4.4, §5.4 and §3.8: the claims of the granted scopes in the ID token as at
 * userinfo, `groups` in all three tokens, the login session's `sid`, and offline_access, each
 * through openid-client against the server on a real socket.
 */
describe('the claims of the tokens', () => {
  let receiver: Awaited<ReturnType<typeof startLogoutReceiver>>;

  test.beforeAll(async ({ registerClient }) => {
    receiver = await startLogoutReceiver();
    await registerClient({
      clientId: 'claims-logout-rp',
      postLogoutRedirectUris: [SIGNED_OUT],
      backchannelLogoutUri: `${receiver.origin}/logout`,
    });
    await registerClient({
      clientId: 'claims-offline-rp',
      backchannelLogoutUri: `${receiver.origin}/offline`,
    });
    await registerClient({
      clientId: 'claims-no-refresh',
      grantTypes: ['authorization_code'],
    });
  });

  test.afterAll(async () => {
    await receiver.close();
  });

  async function signIn(
    origin: string,
    clientId: string,
    scope: string,
    options: { browser?: FormBrowser; email?: string; remember?: boolean } = {},
  ) {
    const config = await relyingParty(origin, clientId);
    const browser = options.browser ?? new FormBrowser(origin);
    const started = await startAuthorization(config, { scope });
    const callback = await authorizeInBrowser(
      browser,
      started,
      options.email ?? DemoUserEmail.alice,
      { remember: options.remember ?? false },
    );
    const tokens = await redeem(config, started, callback);
    return { config, browser, tokens, idToken: decodeJwt(tokens.id_token!) };
  }

  describe('the claims of each scope, in the ID token as at userinfo (docs/oauth.md §4.2)', () => {
    const alice = String(ids.users.alice);
    const expected: Record<string, Record<string, unknown>> = {
      openid: { sub: alice, preferred_username: `Alice${alice}` },
      profile: {
        name: 'Alice Mustermann',
        given_name: 'Alice',
        family_name: 'Mustermann',
        picture: expect.stringMatching(/\/api\/uploads\//),
        locale: 'de-DE',
      },
      email: { email: DemoUserEmail.alice, email_verified: true },
      regions: {
        region_ids: ['3', '5'],
        region_ambassador: ['5'],
        // Musterstadt (3) a region; 5 its working group, which Alice administers.
        groups: ['region:3', 'workgroup:5', 'workgroup:5:admin'],
      },
    };

    it.for([
      'openid',
      'openid profile',
      'openid email',
      'openid regions',
      'openid profile email regions',
    ])('scope "%s": exactly its claims, and the same at userinfo', async (scope, { origin }) => {
      const scopes = scope.split(' ');
      const { config, tokens, idToken } = await signIn(origin, DemoClientId.public, scope);
      const claims = Object.assign({}, ...scopes.map((scope) => expected[scope]));
      // The ID token's own claims stay as they were.
      expect(idToken).toMatchObject({
        iss: origin,
        sub: alice,
        aud: DemoClientId.public,
        azp: DemoClientId.public,
        iat: expect.any(Number),
        exp: expect.any(Number),
        auth_time: expect.any(Number),
        nonce: expect.any(String),
        at_hash: expect.any(String),
        sid: expect.any(String),
      });
      expect(userClaimsOf(idToken)).toEqual(claims);
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, alice);
      expect(userinfo).toEqual(userClaimsOf(idToken));

      // The access token carries groups with regions only (MediaWiki's OpenIDConnect reads it).
      const access = decodeJwt(tokens.access_token);
      if (scopes.includes('regions')) expect(access.groups).toEqual(claims.groups);
      else expect(access).not.toHaveProperty('groups');
      expect(access).not.toHaveProperty('email');
    });

    it('gives groups in the refreshed ID token and access token, and not at a narrowed refresh without regions', async ({
      origin,
    }) => {
      const { config, tokens } = await signIn(origin, DemoClientId.public, 'openid email regions');
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      const groups = expected.regions!.groups;
      expect(decodeJwt(refreshed.id_token!).groups).toEqual(groups);
      expect(decodeJwt(refreshed.access_token).groups).toEqual(groups);
      const narrowed = await client.refreshTokenGrant(config, refreshed.refresh_token!, {
        scope: 'openid email',
      });
      expect(decodeJwt(narrowed.id_token!)).not.toHaveProperty('groups');
      expect(decodeJwt(narrowed.id_token!)).not.toHaveProperty('region_ids');
      expect(decodeJwt(narrowed.access_token)).not.toHaveProperty('groups');
      expect(decodeJwt(narrowed.id_token!).email).toBe(DemoUserEmail.alice);
    });

    it('names an orga user’s working groups by id with their admin role', async ({ origin }) => {
      const { idToken } = await signIn(origin, DemoClientId.public, 'openid regions', {
        email: DemoUserEmail.orga,
      });
      expect(idToken.groups).toEqual(
        expect.arrayContaining(['workgroup:387:admin', 'workgroup:6704:admin']),
      );
      for (const group of idToken.groups as string[]) {
        expect(group).toMatch(/^(region|workgroup):[1-9][0-9]*(:(ambassador|admin))?$/);
      }
    });
  });

  describe('sid (docs/oauth.md §4.4)', () => {
    it('names the login session: the same for every client and refresh, another for another session', async ({
      app,
      origin,
    }) => {
      const first = await signIn(origin, DemoClientId.public, 'openid');
      const sid = first.idToken.sid as string;
      expect(sid).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // Neither the cookie nor the session's key in the store.
      const cookie = first.browser.cookie(app.sessionCookies.names.session)!;
      expect(cookie).toBeDefined();
      expect(sid).not.toBe(cookie);
      expect(sid).not.toBe(hash('sha256', cookie, 'base64url'));
      expect(await app.kv.get(`session:${sid}`)).toBeNull();

      const refreshed = await client.refreshTokenGrant(first.config, first.tokens.refresh_token!);
      expect(decodeJwt(refreshed.id_token!).sid).toBe(sid);
      const again = await client.refreshTokenGrant(first.config, refreshed.refresh_token!);
      expect(decodeJwt(again.id_token!).sid).toBe(sid);

      const sameBrowser = await signIn(origin, 'claims-offline-rp', 'openid', {
        browser: first.browser,
      });
      expect(sameBrowser.idToken.sid).toBe(sid);
      const otherBrowser = await signIn(origin, DemoClientId.public, 'openid');
      expect(otherBrowser.idToken.sid).not.toBe(sid);
    });

    it('is in the logout token at sign-out, equal to the ID token’s, with sub', async ({
      origin,
      services,
    }) => {
      const { config, browser, tokens, idToken } = await signIn(
        origin,
        'claims-logout-rp',
        'openid',
      );
      const before = receiver.received.length;
      const logout = await browser.request(
        client.buildEndSessionUrl(config, {
          id_token_hint: tokens.id_token!,
          post_logout_redirect_uri: SIGNED_OUT,
        }).href,
      );
      expect(logout.status).toBe(303);
      await services.backchannelLogout.settled();
      const delivered = receiver.received
        .slice(before)
        .filter((request) => request.path === '/logout');
      expect(delivered).toHaveLength(1);
      const { payload } = await jwtVerify(
        delivered[0]!.form.get('logout_token')!,
        createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!)),
        { issuer: origin, audience: 'claims-logout-rp', typ: 'logout+jwt' },
      );
      expect(idToken.sid).toEqual(expect.any(String));
      expect(payload.sid).toBe(idToken.sid);
      expect(payload.sub).toBe(idToken.sub);
    });

    it('at a sign-out, names each login session the client’s grants began in, one logout token each', async ({
      origin,
      services,
    }) => {
      const first = await signIn(origin, 'claims-logout-rp', 'openid');
      const second = await signIn(origin, 'claims-logout-rp', 'openid');
      expect(first.idToken.sid).not.toBe(second.idToken.sid);
      const before = receiver.received.length;
      // Signing out of one browser ends every grant of the user (docs/oauth.md §9.2).
      const logout = await first.browser.request(
        client.buildEndSessionUrl(first.config, { id_token_hint: first.tokens.id_token! }).href,
      );
      expect(logout.status).toBe(200);
      await services.backchannelLogout.settled();
      const sids = receiver.received
        .slice(before)
        .filter((request) => request.path === '/logout')
        .map((request) => decodeJwt(request.form.get('logout_token')!).sid);
      expect(sids.sort()).toEqual([first.idToken.sid, second.idToken.sid].sort());
    });

    it('is absent from the tokens of a code issued before sid was kept, which still redeem and refresh', async ({
      app,
    }) => {
      // A code as the previous release stored it: no sid field.
      const { verifier, challenge } = pkcePair();
      const code = await issueCode(app, {
        clientId: DemoClientId.public,
        userId: ids.users.bob,
        codeChallenge: challenge,
        scopes: ['openid', 'email'],
      });
      const response = await tokenRequest(app, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT_URI,
        code_verifier: verifier,
        client_id: DemoClientId.public,
      });
      expect(response.statusCode).toBe(200);
      const tokens = response.json<TokenResponse>();
      expect(decodeJwt(tokens.id_token!)).not.toHaveProperty('sid');
      expect(decodeJwt(tokens.id_token!).email).toBe(DemoUserEmail.bob);
      const refreshed = await refreshRequest(app, DemoClientId.public, tokens.refresh_token!);
      expect(refreshed.statusCode).toBe(200);
      expect(decodeJwt(refreshed.json<TokenResponse>().id_token!)).not.toHaveProperty('sid');
    });

    it('is kept in the family record as an optional field the previous release reads past', async ({
      app,
      origin,
      services,
    }) => {
      const { tokens, idToken } = await signIn(origin, DemoClientId.public, 'openid');
      const { familyId } = (await services.refreshTokens.open(tokens.refresh_token!))!;
      const record = JSON.parse((await app.kv.get(`oauth:family:${familyId}`))!) as Record<
        string,
        unknown
      >;
      expect(idToken.sid).toEqual(expect.any(String));
      expect(record.sid).toBe(idToken.sid);
    });
  });

  describe('offline_access (docs/oauth.md §3.8, OIDC Core 11)', () => {
    it('is advertised in scopes_supported, with groups and sid in claims_supported', async ({
      origin,
    }) => {
      const config = await relyingParty(origin, DemoClientId.public);
      const metadata = config.serverMetadata();
      expect(metadata.scopes_supported).toContain('offline_access');
      expect(metadata.claims_supported).toEqual(expect.arrayContaining(['groups', 'sid']));
      expect(metadata.backchannel_logout_supported).toBe(true);
      expect(metadata.backchannel_logout_session_supported).toBe(true);
    });

    it('is granted to a client of the refresh grant, with a refresh token, and shown in plain words', async ({
      origin,
    }) => {
      const config = await relyingParty(origin, DemoClientId.public);
      const browser = new FormBrowser(origin);
      const started = await startAuthorization(config, { scope: 'openid offline_access' });
      const pages: string[] = [];
      const act = userActs(DemoUserEmail.carla);
      const callback = await browser.authorize(started.url.href, (page: ShownPage) => {
        pages.push(page.html);
        return act(page);
      });
      expect(callback.searchParams.get('error')).toBeNull();
      const consent = pages.find((html) => html.includes('action="/oauth/consent"'))!;
      expect(consent).toMatch(/auch nach deiner Abmeldung|even after you sign out/);
      const tokens = await redeem(config, started, callback);
      expect(tokens.scope).toBe('openid offline_access');
      expect(tokens.refresh_token).toEqual(expect.any(String));
    });

    it('is accepted in a pushed authorization request (/oauth/par)', async ({ origin }) => {
      const config = await relyingParty(origin, DemoClientId.public);
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = await client.buildAuthorizationUrlWithPAR(config, {
        redirect_uri: DEMO_REDIRECT_URI,
        scope: 'openid offline_access',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
      });
      const started = { url, codeVerifier, state, nonce: undefined };
      const callback = await authorizeInBrowser(
        new FormBrowser(origin),
        started,
        DemoUserEmail.bob,
      );
      const tokens = await redeem(config, started, callback);
      expect(tokens.scope).toBe('openid offline_access');
      expect(tokens.refresh_token).toEqual(expect.any(String));
    });

    it('is dropped, not refused, for a client without the refresh grant', async ({ origin }) => {
      const { tokens } = await signIn(origin, 'claims-no-refresh', 'openid offline_access');
      expect(tokens.scope).toBe('openid');
      expect(tokens.refresh_token).toBeUndefined();
    });

    it('is asked for on the consent screen even when the other scopes were remembered', async ({
      origin,
    }) => {
      const browser = new FormBrowser(origin);
      await signIn(origin, 'claims-offline-rp', 'openid profile', {
        browser,
        email: DemoUserEmail.bob,
        remember: true,
      });
      expect(browser.pagesShown).toEqual(['login', 'consent']);
      await signIn(origin, 'claims-offline-rp', 'openid profile', { browser });
      expect(browser.pagesShown).toEqual(['login', 'consent']);
      const offline = await signIn(origin, 'claims-offline-rp', 'openid profile offline_access', {
        browser,
        remember: true,
      });
      expect(browser.pagesShown).toEqual(['login', 'consent', 'consent']);
      expect(offline.tokens.scope).toBe('openid profile offline_access');
      await signIn(origin, 'claims-offline-rp', 'openid offline_access', { browser });
      expect(browser.pagesShown).toEqual(['login', 'consent', 'consent']);
    });

    it('keeps its grant through a sign-out, which ends the grants without it; both are told', async ({
      origin,
      services,
    }) => {
      const browser = new FormBrowser(origin);
      const email = DemoUserEmail.carla;
      const online = await signIn(origin, DemoClientId.public, 'openid', { browser, email });
      const offline = await signIn(origin, 'claims-offline-rp', 'openid offline_access', {
        browser,
        email,
      });
      const before = receiver.received.length;
      const logout = await browser.request(
        client.buildEndSessionUrl(online.config, { id_token_hint: online.tokens.id_token! }).href,
      );
      expect(logout.status).toBe(200);
      await services.backchannelLogout.settled();

      await expect(
        client.refreshTokenGrant(online.config, online.tokens.refresh_token!),
      ).rejects.toMatchObject({ error: 'invalid_grant' });
      const refreshed = await client.refreshTokenGrant(
        offline.config,
        offline.tokens.refresh_token!,
      );
      expect(refreshed.scope).toBe('openid offline_access');
      // The session ended all the same: the offline client is told, naming it.
      const told = receiver.received.slice(before).filter((request) => request.path === '/offline');
      expect(told).toHaveLength(1);
      expect(decodeJwt(told[0]!.form.get('logout_token')!).sid).toBe(offline.idToken.sid);

      // A later sign-out of another session does not tell it again of the one that ended.
      const laterBrowser = new FormBrowser(origin);
      const later = await signIn(origin, DemoClientId.public, 'openid', {
        browser: laterBrowser,
        email,
      });
      const beforeLater = receiver.received.length;
      const laterLogout = await laterBrowser.request(
        client.buildEndSessionUrl(later.config, { id_token_hint: later.tokens.id_token! }).href,
      );
      expect(laterLogout.status).toBe(200);
      await services.backchannelLogout.settled();
      const toldAgain = receiver.received
        .slice(beforeLater)
        .filter((request) => request.path === '/offline');
      expect(toldAgain).toEqual([]);
    });
  });
});

import { servicesOf } from '../test-support/build-test-app.ts';
import { DEMO_REDIRECT_URI, DemoUserEmail } from '@foodshare/domain';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import * as client from 'openid-client';
import type { AuthApp } from '../app.ts';
import { startLogoutReceiver } from '../test-support/logout-receiver.ts';
import type { registerTestClient } from '../test-support/token-helpers.ts';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';
import {
  authorizeInBrowser,
  type ClientAuthMethod,
  FormBrowser,
  relyingParty,
} from '@foodshare/relying-party';

test.override('listen', { scope: 'file' }, true);
test.override('appEnv', { scope: 'file' }, { BACKCHANNEL_LOGOUT_ALLOWED_HOSTS: '127.0.0.1' });

const SECRET = 'community-relying-party-secret';
// WordPress openid-connect-generic: its redirect URI is admin-ajax.php with a query string.
const WORDPRESS_REDIRECT_URI =
  'https://wiki.example.org/wp-admin/admin-ajax.php?action=openid-connect-authorize';
const ALICE_GROUPS = ['region:3', 'workgroup:5', 'workgroup:5:admin'];

interface SignIn {
  clientId: string;
  method: ClientAuthMethod;
  scope: string;
  /** Whether the relying party sends PKCE (Gitea, Wiki.js and WordPress do not). */
  pkce: boolean;
  email?: string;
}

/**
 * What the common community relying parties read of our tokens (/work/shared/RELYING-PARTIES.md,
 * "What the common community relying parties read"), one block per relying party, each driving
 * the code flow with openid-client against the server on a real socket, configured as that
 * relying party is, and asserting what its source reads.
 */
describe('community relying parties: what each one reads', () => {
  let receiver: Awaited<ReturnType<typeof startLogoutReceiver>>;

  test.beforeAll(async ({ registerClient }) => {
    receiver = await startLogoutReceiver();
    const clients: Parameters<typeof registerTestClient>[1][] = [
      { clientId: 'nextcloud', backchannelLogoutUri: `${receiver.origin}/nextcloud` },
      { clientId: 'synapse', backchannelLogoutUri: `${receiver.origin}/synapse` },
      { clientId: 'mediawiki' },
      { clientId: 'bookstack' },
      { clientId: 'grafana' },
      { clientId: 'wordpress', redirectUris: [WORDPRESS_REDIRECT_URI] },
      { clientId: 'discourse' },
      { clientId: 'moodle' },
    ];
    for (const input of clients) await registerClient(input, SECRET);
  });

  test.afterAll(async () => {
    await receiver.close();
  });

  async function signIn(origin: string, options: SignIn) {
    const config = await relyingParty(origin, options.clientId, {
      method: options.method,
      secret: SECRET,
    });
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: DEMO_REDIRECT_URI,
      scope: options.scope,
      state,
      nonce,
      ...(options.pkce
        ? {
            code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
            code_challenge_method: 'S256',
          }
        : {}),
    });
    const browser = new FormBrowser(origin);
    const started = { url, codeVerifier, state, nonce };
    const callback = await authorizeInBrowser(
      browser,
      started,
      options.email ?? DemoUserEmail.alice,
    );
    const tokens = await client.authorizationCodeGrant(config, callback, {
      ...(options.pkce ? { pkceCodeVerifier: codeVerifier } : {}),
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    return { config, browser, tokens, nonce, idToken: decodeJwt(tokens.id_token!) };
  }

  /** The logout token the receiver got at `path` after a sign-out, verified by the JWKS. */
  async function logoutTokenAt(
    origin: string,
    app: AuthApp,
    config: client.Configuration,
    path: string,
    clientId: string,
  ) {
    await servicesOf(app).backchannelLogout.settled();
    const delivered = receiver.received.filter((request) => request.path === path);
    expect(delivered).toHaveLength(1);
    const { payload } = await jwtVerify(
      delivered[0]!.form.get('logout_token')!,
      createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!)),
      { issuer: origin, audience: clientId, typ: 'logout+jwt' },
    );
    return payload;
  }

  // nextcloud/user_oidc lib/Controller/LoginController.php: name and email from the ID token's
  // payload; its back-channel logout (lib/Controller/LoginController.php backChannelLogout)
  // finds the session by the logout token's sid.
  describe('Nextcloud user_oidc', () => {
    it('reads email, name and groups from the ID token, and gets a back-channel logout by sid', async ({
      app,
      origin,
    }) => {
      const { config, browser, tokens, idToken } = await signIn(origin, {
        clientId: 'nextcloud',
        method: 'client_secret_post',
        scope: 'openid email profile regions',
        pkce: true,
      });
      expect(idToken).toMatchObject({
        email: DemoUserEmail.alice,
        name: 'Alice Mustermann',
        groups: ALICE_GROUPS,
        sid: expect.any(String),
      });
      const metadata = config.serverMetadata();
      expect(metadata.backchannel_logout_supported).toBe(true);
      expect(metadata.backchannel_logout_session_supported).toBe(true);

      const logout = await browser.request(
        client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token! }).href,
      );
      expect(logout.status).toBe(200);
      const logoutToken = await logoutTokenAt(origin, app, config, '/nextcloud', 'nextcloud');
      expect(logoutToken.sid).toBe(idToken.sid);
      expect(logoutToken.sub).toBe(idToken.sub);
    });
  });

  // element-hq/synapse synapse/handlers/oidc.py: _validate_metadata refuses a provider that does
  // not advertise its client_auth_method or lacks S256; _uses_userinfo is false when openid is
  // in scope, so the profile (preferred_username for the localpart) comes from the ID token; a
  // back-channel logout needs both discovery flags, and the logout token's sid.
  describe('Matrix Synapse', () => {
    it('finds its client authentication and S256 in discovery, and preferred_username in the ID token', async ({
      origin,
    }) => {
      const { config, idToken } = await signIn(origin, {
        clientId: 'synapse',
        method: 'client_secret_basic',
        scope: 'openid profile',
        pkce: true,
      });
      const metadata = config.serverMetadata();
      expect(metadata.token_endpoint_auth_methods_supported).toContain('client_secret_basic');
      expect(metadata.code_challenge_methods_supported).toContain('S256');
      expect(metadata.response_types_supported).toContain('code');
      expect(metadata.jwks_uri).toBe(`${origin}/.well-known/jwks.json`);
      expect(metadata.backchannel_logout_supported).toBe(true);
      expect(metadata.backchannel_logout_session_supported).toBe(true);
      expect(idToken.preferred_username).toBe(`Alice${ids.users.alice}`);
      expect(idToken.sid).toEqual(expect.any(String));
    });
  });

  // wikimedia/mediawiki-extensions-OpenIDConnect over jumbojett/OpenID-Connect-PHP
  // (src/OpenIDConnectClient.php requestUserInfo, getAccessTokenPayload): name, email and
  // preferred_username from userinfo; groups from the access token's payload; a kid on tokens.
  describe('MediaWiki / BlueSpice OpenIDConnect', () => {
    it('reads name, email and a unique preferred_username at userinfo, and groups from the access token', async ({
      origin,
    }) => {
      const alice = await signIn(origin, {
        clientId: 'mediawiki',
        method: 'client_secret_basic',
        scope: 'openid profile email regions',
        pkce: true,
      });
      const userinfo = await client.fetchUserInfo(
        alice.config,
        alice.tokens.access_token,
        String(ids.users.alice),
      );
      expect(userinfo).toMatchObject({
        name: 'Alice Mustermann',
        email: DemoUserEmail.alice,
        preferred_username: `Alice${ids.users.alice}`,
      });
      expect(decodeJwt(alice.tokens.access_token).groups).toEqual(ALICE_GROUPS);
      expect(decodeProtectedHeader(alice.tokens.access_token).kid).toEqual(expect.any(String));
      expect(decodeProtectedHeader(alice.tokens.id_token!).kid).toEqual(expect.any(String));

      // The wiki user name: another user never gets the same one.
      const bob = await signIn(origin, {
        clientId: 'mediawiki',
        method: 'client_secret_basic',
        scope: 'openid profile',
        pkce: true,
        email: DemoUserEmail.bob,
      });
      const bobInfo = await client.fetchUserInfo(
        bob.config,
        bob.tokens.access_token,
        String(ids.users.bob),
      );
      expect(bobInfo.preferred_username).not.toBe(userinfo.preferred_username);
    });
  });

  // BookStackApp/BookStack app/Access/Oidc (OidcService, OidcIdToken, OidcJwtSigningKey): RS256
  // only, JWKS keys with use sig and alg, exactly one aud, email required, groups optional.
  describe('BookStack', () => {
    it('gets RS256 keys with use and alg, an ID token for it alone with email, and groups as strings', async ({
      origin,
    }) => {
      const { config, idToken } = await signIn(origin, {
        clientId: 'bookstack',
        method: 'client_secret_basic',
        scope: 'openid profile email regions',
        pkce: true,
      });
      const metadata = config.serverMetadata();
      expect(metadata.id_token_signing_alg_values_supported).toEqual(['RS256']);
      const jwks = (await (await fetch(metadata.jwks_uri!)).json()) as {
        keys: Record<string, unknown>[];
      };
      expect(jwks.keys.length).toBeGreaterThan(0);
      for (const key of jwks.keys)
        expect(key).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256' });
      expect(idToken.aud).toBe('bookstack');
      expect(idToken.email).toBe(DemoUserEmail.alice);
      expect(idToken.groups).toEqual(ALICE_GROUPS);
    });
  });

  // grafana/grafana pkg/login/social/connectors/generic_oauth.go (groups_attribute_path),
  // requarks/wiki server/modules/authentication/oidc (groupsClaim), go-gitea/gitea
  // services/auth/source/oauth2 (group claim name; markbates/goth's openidConnect provider,
  // which sends no PKCE and compares iss with the discovered issuer byte for byte).
  describe('Grafana, Wiki.js, Gitea', () => {
    it('map roles from groups, an array of strings, sign in without PKCE, and find iss byte for byte', async ({
      origin,
    }) => {
      const { config, idToken, tokens } = await signIn(origin, {
        clientId: 'grafana',
        method: 'client_secret_basic',
        scope: 'openid profile email regions',
        pkce: false,
      });
      expect(Array.isArray(idToken.groups)).toBe(true);
      for (const group of idToken.groups as unknown[]) expect(typeof group).toBe('string');
      expect(idToken.groups).toContain('workgroup:5:admin');
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub!);
      expect(userinfo.groups).toEqual(idToken.groups);
      expect(config.serverMetadata().issuer).toBe(origin);
      expect(idToken.iss).toBe(config.serverMetadata().issuer);
    });
  });

  // oidc-wp/openid-connect-generic includes/openid-connect-generic-client.php: the redirect URI
  // is admin-ajax.php?action=openid-connect-authorize, the token request a form POST of its own
  // with the secret in the body (client_secret_post) and no PKCE, and offline_access in the
  // default scope for a refresh token.
  describe('WordPress openid-connect-generic', () => {
    it('signs in with client_secret_post, no PKCE, a redirect URI with a query string, and refreshes with offline_access', async ({
      origin,
    }) => {
      const config = await relyingParty(origin, 'wordpress', {
        method: 'client_secret_post',
        secret: SECRET,
      });
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: WORDPRESS_REDIRECT_URI,
        scope: 'email profile openid offline_access',
        state,
        nonce,
      });
      const callback = await authorizeInBrowser(
        new FormBrowser(origin),
        { url, codeVerifier: '', state, nonce },
        DemoUserEmail.alice,
      );
      // code and state appended to the registered query with &.
      expect(`${callback.origin}${callback.pathname}`).toBe(
        'https://wiki.example.org/wp-admin/admin-ajax.php',
      );
      expect(callback.search).toMatch(/^\?action=openid-connect-authorize&code=/);
      expect(callback.searchParams.get('state')).toBe(state);

      const tokenRequest = (fields: Record<string, string>) =>
        fetch(config.serverMetadata().token_endpoint!, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            client_id: 'wordpress',
            client_secret: SECRET,
            ...fields,
          }).toString(),
        });
      const response = await tokenRequest({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: WORDPRESS_REDIRECT_URI,
      });
      expect(response.status).toBe(200);
      const tokens = (await response.json()) as {
        id_token: string;
        refresh_token?: string;
        scope: string;
      };
      const { payload } = await jwtVerify(
        tokens.id_token,
        createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!)),
        { issuer: origin, audience: 'wordpress' },
      );
      expect(payload.nonce).toBe(nonce);
      expect(payload.email).toBe(DemoUserEmail.alice);
      expect(tokens.scope.split(' ')).toContain('offline_access');
      expect(tokens.refresh_token).toEqual(expect.any(String));
      const refreshed = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
      });
      expect(refreshed.status).toBe(200);
    });
  });

  // discourse/discourse-openid-connect lib/omniauth_open_id_connect.rb: fails the login when the
  // ID token's nonce is not the one it sent; its default scope is openid alone.
  describe('Discourse', () => {
    it('gets its nonce back in the ID token with the scope openid alone', async ({ origin }) => {
      const { idToken, nonce, tokens } = await signIn(origin, {
        clientId: 'discourse',
        method: 'client_secret_basic',
        scope: 'openid',
        pkce: true,
      });
      expect(idToken.nonce).toBe(nonce);
      expect(tokens.scope).toBe('openid');
      expect(idToken.sub).toBe(String(ids.users.alice));
    });
  });

  // moodle/moodle lib/classes/oauth2 (the issuer's loginscopesoffline, openid profile email
  // offline_access) and auth/oauth2: email and a user name from userinfo.
  describe('Moodle', () => {
    it('gets a refresh token with offline_access, and email and a user name at userinfo', async ({
      origin,
    }) => {
      const { config, tokens, idToken } = await signIn(origin, {
        clientId: 'moodle',
        method: 'client_secret_post',
        scope: 'openid profile email offline_access',
        pkce: true,
      });
      expect(tokens.refresh_token).toEqual(expect.any(String));
      expect(tokens.scope).toBe('openid profile email offline_access');
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub!);
      expect(userinfo).toMatchObject({
        email: DemoUserEmail.alice,
        preferred_username: `Alice${ids.users.alice}`,
      });
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.scope).toBe('openid profile email offline_access');
    });
  });
});

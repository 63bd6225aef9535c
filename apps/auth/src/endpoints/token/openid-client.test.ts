import { servicesOf } from '../../test-support/build-test-app.ts';
import * as oidc from 'openid-client';
import type { AuthApp } from '../../app.ts';
import { injectFetch } from '../../test-support/inject-fetch.ts';
import {
  DEMO_CLIENT_SECRET,
  DEMO_REDIRECT_URI,
  DemoClientId,
  issueCode,
  pkcePair,
} from '../../test-support/token-helpers.ts';
import { describe, expect, ids, it } from '../../test-support/fixtures.ts';

/**
 * The token, userinfo and revocation endpoints as a certified relying-party library uses them:
 * it validates the ID token (signature by JWKS, iss, aud, azp, nonce, at_hash when present) and
 * the response shapes. The code comes straight from the store, as /oauth/authorize would issue it.
 */
describe('token endpoint with openid-client', () => {
  async function configure(app: AuthApp, clientId: string, auth: oidc.ClientAuth, secret?: string) {
    return oidc.discovery(new URL(servicesOf(app).issuer), clientId, secret, auth, {
      [oidc.customFetch]: injectFetch(app),
      execute: [oidc.allowInsecureRequests],
    });
  }

  async function callbackWithCode(app: AuthApp, clientId: string, userId: number) {
    const { verifier, challenge } = pkcePair();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const code = await issueCode(app, { clientId, userId, codeChallenge: challenge, nonce });
    const callback = new URL(DEMO_REDIRECT_URI);
    callback.search = new URLSearchParams({ code, state, iss: servicesOf(app).issuer }).toString();
    return {
      callback,
      checks: { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state },
    };
  }

  it.for<[string, string, () => oidc.ClientAuth, string | undefined]>([
    ['demo-public with PKCE (none)', DemoClientId.public, () => oidc.None(), undefined],
    [
      'demo-confidential by client_secret_basic',
      DemoClientId.confidential,
      () => oidc.ClientSecretBasic(DEMO_CLIENT_SECRET),
      DEMO_CLIENT_SECRET,
    ],
    [
      'demo-confidential by client_secret_post',
      DemoClientId.confidential,
      () => oidc.ClientSecretPost(DEMO_CLIENT_SECRET),
      DEMO_CLIENT_SECRET,
    ],
  ])(
    'completes code exchange, userinfo, refresh and revocation: %s',
    async ([, clientId, auth, secret], { app }) => {
      const config = await configure(app, clientId, auth(), secret);
      const { callback, checks } = await callbackWithCode(app, clientId, ids.users.alice);
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        ...checks,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      expect(claims.sub).toBe(String(ids.users.alice));
      expect(claims.nonce).toBe(checks.expectedNonce);

      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      expect(userinfo.preferred_username).toBe(`Alice${ids.users.alice}`);

      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.claims()!.sub).toBe(claims.sub);
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

      await oidc.tokenRevocation(config, refreshed.refresh_token!);
      await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    },
  );
});

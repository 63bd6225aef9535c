import * as client from 'openid-client';
import { FormBrowser } from './form-browser.ts';
import {
  authorizeInBrowser,
  redeem,
  relyingParty,
  startAuthorization,
  type ClientAuthMethod,
} from './relying-party.ts';

export interface CodeFlowRun {
  clientId: string;
  method: ClientAuthMethod;
  /** The pages the user saw, in order (login, consent). */
  pagesShown: string[];
  idToken: { sub: string; aud: string | string[]; authTime: number | undefined };
  userinfo: client.UserInfoResponse;
  /** Whether refreshing handed out a new refresh token and refused the old one afterwards. */
  refreshRotated: boolean;
}

/**
 * One relying party's whole visit, as openid-client performs it against a running server:
 * discovery, PKCE authorization with the user logging in and consenting, code exchange with
 * ID-token validation, userinfo, and a refresh whose old token must then be refused. The user
 * is a demo account (demo password), who logs in and allows when asked.
 * Throws (with openid-client's error) at the first step that does not conform.
 */
export async function completeCodeFlow(
  origin: string,
  clientId: string,
  auth: { method: ClientAuthMethod; secret?: string },
  email: string,
): Promise<CodeFlowRun> {
  const config = await relyingParty(origin, clientId, auth);
  const browser = new FormBrowser(origin);
  const started = await startAuthorization(config);
  const callback = await authorizeInBrowser(browser, started, email);
  const tokens = await redeem(config, started, callback);
  const claims = tokens.claims();
  if (!claims) throw new Error('the token response carried no ID token');
  const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);

  let refreshRotated = false;
  if (tokens.refresh_token) {
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token);
    const reuseRefused = await client.refreshTokenGrant(config, tokens.refresh_token).then(
      () => false,
      (error: unknown) =>
        error instanceof client.ResponseBodyError && error.error === 'invalid_grant',
    );
    refreshRotated =
      refreshed.refresh_token !== undefined &&
      refreshed.refresh_token !== tokens.refresh_token &&
      reuseRefused;
  }

  return {
    clientId,
    method: auth.method,
    pagesShown: browser.pagesShown,
    idToken: { sub: claims.sub, aud: claims.aud, authTime: claims.auth_time },
    userinfo,
    refreshRotated,
  };
}

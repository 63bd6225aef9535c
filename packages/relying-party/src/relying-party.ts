import { DEMO_PASSWORD, DEMO_REDIRECT_URI } from '@foodshare/domain';
import * as client from 'openid-client';
import type { FormBrowser, PageAction, ShownPage } from './form-browser.ts';

export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/**
 * A relying party configured the way openid-client's documentation tells one to: discovery
 * from the issuer URL (which checks that the issuer matches it), then the client's credentials.
 * Plain http is allowed only because the test server listens on loopback.
 */
export async function relyingParty(
  origin: string,
  clientId: string,
  auth: { method: ClientAuthMethod; secret?: string } = { method: 'none' },
): Promise<client.Configuration> {
  const clientAuth =
    auth.method === 'client_secret_basic'
      ? client.ClientSecretBasic(auth.secret)
      : auth.method === 'client_secret_post'
        ? client.ClientSecretPost(auth.secret)
        : client.None();
  return client.discovery(new URL(origin), clientId, undefined, clientAuth, {
    execute: [client.allowInsecureRequests],
  });
}

/** What the relying party keeps in its own session between redirect and callback. */
export interface StartedAuthorization {
  url: URL;
  codeVerifier: string;
  state: string;
  nonce: string | undefined;
}

export async function startAuthorization(
  config: client.Configuration,
  parameters: Record<string, string> = {},
  options: { nonce?: boolean } = {},
): Promise<StartedAuthorization> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = options.nonce === false ? undefined : client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: DEMO_REDIRECT_URI,
    scope: 'openid profile email regions',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    ...(nonce === undefined ? {} : { nonce }),
    ...parameters,
  });
  return { url, codeVerifier, state, nonce };
}

/**
 * The user's part: log in as `email` when asked, answer the consent screen when shown, go back
 * to the client from a refusal.
 */
export function userActs(
  email: string,
  consent: { decision?: 'allow' | 'deny'; remember?: boolean } = {},
) {
  return (page: ShownPage): PageAction => {
    if (page.kind === 'login') return page.login(email, DEMO_PASSWORD);
    if (page.kind === 'consent') return page.decide(consent.decision ?? 'allow', consent.remember);
    if (page.kind === 'refused') return page.backToClient();
    throw new Error(`unexpected page:\n${page.html}`);
  };
}

/** The browser round trip of an authorization request; the callback URL it ends at. */
export function authorizeInBrowser(
  browser: FormBrowser,
  started: StartedAuthorization,
  email: string,
  consent: { decision?: 'allow' | 'deny'; remember?: boolean } = {},
): Promise<URL> {
  return browser.authorize(started.url.href, userActs(email, consent));
}

/** The callback handled as the library does it: response checks, code exchange, ID token. */
export function redeem(
  config: client.Configuration,
  started: StartedAuthorization,
  callback: URL,
  checks: { maxAge?: number } = {},
) {
  return client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: started.codeVerifier,
    expectedState: started.state,
    ...(started.nonce === undefined ? {} : { expectedNonce: started.nonce }),
    idTokenExpected: true,
    ...checks,
  });
}

import {
  authorizeInBrowser,
  FormBrowser,
  relyingParty,
  startAuthorization,
  type StartedAuthorization,
} from '@foodshare/relying-party';
import { DEMO_REDIRECT_URI, DemoClientId, DemoUserEmail } from '@foodshare/domain';

// The OAuth steps of the cluster tests, each sent to one instance of the auth service by its
// own port, past the proxy, so that a test chooses which instance does what.

/** `url` (an endpoint under the issuer) at another origin: an instance's own. */
export function atOrigin(origin: string, url: string): string {
  const target = new URL(url);
  return `${origin}${target.pathname}${target.search}`;
}

export interface IssuedCode {
  code: string;
  started: StartedAuthorization;
  tokenEndpoint: string;
}

/**
 * alice authorizes demo-public (PKCE) in a browser that talks to the auth instance at
 * `authOrigin` only: the authorization request, login and consent all reach that instance,
 * which issues the code. Discovery goes through the proxy at `issuer`, as a client's would.
 */
export async function codeIssuedAt(issuer: string, authOrigin: string): Promise<IssuedCode> {
  const config = await relyingParty(issuer, DemoClientId.public);
  const started = await startAuthorization(config);
  const browser = new FormBrowser(authOrigin);
  const callback = await authorizeInBrowser(
    browser,
    { ...started, url: new URL(atOrigin(authOrigin, started.url.href)) },
    DemoUserEmail.alice,
  );
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback.href}`);
  return { code, started, tokenEndpoint: config.serverMetadata().token_endpoint ?? '' };
}

async function tokenRequest(tokenEndpoint: string, origin: string, form: Record<string, string>) {
  const response = await fetch(atOrigin(origin, tokenEndpoint), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: DemoClientId.public, ...form }),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** The code exchanged at the auth instance at `origin`. */
export function redeemAt(issued: IssuedCode, origin: string) {
  return tokenRequest(issued.tokenEndpoint, origin, {
    grant_type: 'authorization_code',
    code: issued.code,
    redirect_uri: DEMO_REDIRECT_URI,
    code_verifier: issued.started.codeVerifier,
  });
}

/** A refresh token used at the auth instance at `origin`. */
export function refreshAt(tokenEndpoint: string, origin: string, refreshToken: string) {
  return tokenRequest(tokenEndpoint, origin, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });
}

/** The status of userinfo at `origin` for an access token: 200, or 401 once it is revoked. */
export async function userinfoStatus(origin: string, accessToken: string): Promise<number> {
  const response = await fetch(`${origin}/oauth/userinfo`, {
    headers: { authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(15_000),
  });
  await response.body?.cancel();
  return response.status;
}

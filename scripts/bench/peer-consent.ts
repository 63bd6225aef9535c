// alice's session on the bench peer (peer-server.ts), made once by following its redirects
// through the interaction page, and the OAuth inputs of the peer's scenarios: its later
// authorizations redirect with a code at once, as ours do after a remembered consent.
import { DEMO_REDIRECT_URI } from '@foodshare/domain';
import { BENCH_RESOURCE, BENCH_RESOURCE_SCOPE } from './peer-server.ts';
import { authorizeUrlOf, BENCH_SCOPES, oauthInputs, type OAuthInputs } from './sessions.ts';

export interface PeerInputs {
  /** Codes for the API: their access tokens are RS256 JWTs, as ours are. */
  jwt: OAuthInputs;
  /**
   * Codes without an API: node-oidc-provider answers userinfo only to the opaque access tokens
   * these give (a JWT names another audience).
   */
  userinfo: OAuthInputs;
}

const MAX_REDIRECTS = 8;

/**
 * Follows an authorization request's redirects through the peer's interaction page with a
 * cookie jar, up to the client's redirect URI: that URI with its code, and the jar's cookies.
 */
export async function followToClient(url: string): Promise<{ callback: URL; cookie: string }> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  let next = url;
  for (let hop = 0; hop < MAX_REDIRECTS; hop += 1) {
    const response = await fetch(next, { headers: { cookie: cookie() }, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const equals = pair.indexOf('=');
      jar.set(pair.slice(0, equals), pair.slice(equals + 1));
    }
    const location = response.headers.get('location');
    if (location === null) {
      throw new Error(`peer: ${next} answered ${response.status}: ${await response.text()}`);
    }
    next = new URL(location, next).href;
    if (next.startsWith(DEMO_REDIRECT_URI)) {
      const callback = new URL(next);
      if (!callback.searchParams.has('code')) throw new Error(`peer refused: ${next}`);
      return { callback, cookie: cookie() };
    }
  }
  throw new Error(`peer: no code after ${MAX_REDIRECTS} redirects from ${url}`);
}

/** Signs `accountId` in on the peer and grants demo-confidential both kinds of code. */
export async function rememberPeerConsent(origin: string, accountId: number): Promise<PeerInputs> {
  const jwtUrl = authorizeUrlOf(origin, `${BENCH_SCOPES} ${BENCH_RESOURCE_SCOPE}`, {
    resource: BENCH_RESOURCE,
    login_hint: String(accountId),
  });
  const { cookie } = await followToClient(jwtUrl);
  return {
    jwt: oauthInputs(jwtUrl, cookie),
    userinfo: oauthInputs(authorizeUrlOf(origin, BENCH_SCOPES), cookie),
  };
}

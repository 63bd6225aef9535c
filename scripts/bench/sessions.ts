// What the scenarios send: a logged-in session per demo user, and the OAuth inputs (a
// remembered consent, single-use codes, refresh tokens, an access token).
import { FormBrowser, type ShownPage } from '@foodshare/relying-party';
import {
  DEMO_CLIENT_SECRET,
  DEMO_PASSWORD,
  DEMO_REDIRECT_URI,
  DemoClientId,
  DemoUserEmail,
  type DemoUserName,
} from '@foodshare/domain';
import { hash } from 'node:crypto';

export interface Session {
  /** Cookie header value. */
  cookie: string;
  /** Headers of a state-changing JSON request with this session. */
  writeHeaders: Record<string, string>;
}

export async function login(origin: string, user: DemoUserName): Promise<Session> {
  const response = await fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DemoUserEmail[user], password: DEMO_PASSWORD }),
  });
  if (response.status !== 200) {
    throw new Error(`login of ${user}: ${response.status} ${await response.text()}`);
  }
  const pairs = response.headers.getSetCookie().map((value) => value.split(';')[0]!);
  const csrf =
    pairs.find((pair) => pair.startsWith('CSRF_TOKEN='))?.slice('CSRF_TOKEN='.length) ?? '';
  const cookie = pairs.join('; ');
  return {
    cookie,
    writeHeaders: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
  };
}

// One PKCE pair for every authorization: the bench measures the server, not the client.
const CODE_VERIFIER = 'bench-code-verifier-0123456789abcdefghijklmnopqrstuvwxyz';
const CODE_CHALLENGE = hash('sha256', CODE_VERIFIER, 'base64url');

export interface OAuthInputs {
  /** The authorization URL alice has consented to (remembered). */
  authorizeUrl: string;
  /** alice's session cookie on the authorization server. */
  cookie: string;
  /** The form body of a code exchange, without the code. */
  exchangeForm: (code: string) => string;
  refreshForm: (refreshToken: string) => string;
}

/** The authorization request the bench's codes come from, on `origin`. */
export function authorizeUrlOf(
  origin: string,
  scope: string,
  extra: Record<string, string> = {},
): string {
  return (
    `${origin}/oauth/authorize?` +
    new URLSearchParams({
      response_type: 'code',
      client_id: DemoClientId.confidential,
      redirect_uri: DEMO_REDIRECT_URI,
      scope,
      state: 'bench',
      code_challenge: CODE_CHALLENGE,
      code_challenge_method: 'S256',
      ...extra,
    }).toString()
  );
}

/** The inputs of codes from `authorizeUrl` with the session `cookie`: demo-confidential's forms. */
export function oauthInputs(authorizeUrl: string, cookie: string): OAuthInputs {
  const client = { client_id: DemoClientId.confidential, client_secret: DEMO_CLIENT_SECRET };
  return {
    authorizeUrl,
    cookie,
    exchangeForm: (code) =>
      new URLSearchParams({
        ...client,
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT_URI,
        code_verifier: CODE_VERIFIER,
      }).toString(),
    refreshForm: (refreshToken) =>
      new URLSearchParams({
        ...client,
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      }).toString(),
  };
}

/** The scopes of the bench's codes and tokens, on ours and on the peer: the same claims. */
export const BENCH_SCOPES = 'openid profile email regions';

/** alice logs in on the authorization page and allows demo-confidential, remembering it. */
export async function rememberConsent(origin: string): Promise<OAuthInputs> {
  const authorizeUrl = authorizeUrlOf(origin, BENCH_SCOPES);
  const browser = new FormBrowser(origin);
  await browser.authorize(authorizeUrl, (page: ShownPage) => {
    if (page.kind === 'login') return page.login(DemoUserEmail.alice, DEMO_PASSWORD);
    if (page.kind === 'consent') return page.decide('allow', true);
    throw new Error(`unexpected page on the way to consent:\n${page.html}`);
  });
  const session = browser.cookie('fs_session');
  if (!session) throw new Error('no session cookie after logging in on the authorization page');
  return oauthInputs(authorizeUrl, `fs_session=${session}`);
}

/** `count` fresh codes from the remembered consent, `parallel` requests at a time. */
export async function issueCodes(
  inputs: OAuthInputs,
  count: number,
  parallel = 16,
): Promise<string[]> {
  const codes: string[] = [];
  const worker = async () => {
    while (codes.length < count) {
      const response = await fetch(inputs.authorizeUrl, {
        headers: { cookie: inputs.cookie },
        redirect: 'manual',
      });
      const location = response.headers.get('location') ?? '';
      const code = new URL(location, 'http://x').searchParams.get('code');
      if (!code) throw new Error(`authorize gave no code: ${response.status} ${location}`);
      codes.push(code);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return codes.slice(0, count);
}

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
}

export async function exchange(origin: string, inputs: OAuthInputs, code: string) {
  const response = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: inputs.exchangeForm(code),
  });
  if (response.status !== 200) {
    throw new Error(`code exchange: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as TokenResponse;
}

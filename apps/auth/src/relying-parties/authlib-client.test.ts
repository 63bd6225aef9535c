import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { DemoUserEmail } from '@foodshare/domain';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';
import { FormBrowser, signInOnOurPages, within } from './relying-party-harness.ts';

/**
 * A Python web app on Authlib 1.2 (Debian's python3-authlib), the library behind most Flask and
 * Django sign-ins: authlib-client.py builds the authorization URL (PKCE S256, nonce), and once
 * the user signed in on our pages it redeems the code, validates the ID token against our JWKS
 * (signature, iss, aud, exp, nonce, at_hash), reads userinfo and refreshes.
 */

// Debian's interpreter: a python3 earlier on PATH (pyenv) lacks Debian's packages.
const PYTHON = '/usr/bin/python3';
const SCRIPT = path.join(import.meta.dirname, 'authlib-client.py');
const CLIENT_ID = 'python-authlib-rp';
const SECRET = `authlib-secret-${randomBytes(8).toString('hex')}`;
// The browser is handed this URL and stops there (FormBrowser does not follow it): the app's
// own web server is not part of what is tested.
const REDIRECT_URI = 'http://127.0.0.1:5000/auth/callback';
const STEP_TIMEOUT_MS = 20_000;

interface AuthlibOutcome {
  error?: string;
  id_token_claims: Record<string, unknown>;
  userinfo: Record<string, unknown>;
  first_access_token: string;
  first_refresh_token: string;
  refreshed_access_token: string;
  refreshed_refresh_token: string | null;
  userinfo_after_refresh: Record<string, unknown>;
}

/** The script as a child process, spoken to in JSON lines. */
function startAuthlibClient(issuer: string) {
  const child = spawn(PYTHON, [SCRIPT, issuer, CLIENT_ID, SECRET, REDIRECT_URI], {
    // Authlib refuses plain http unless told: the test server listens on loopback only.
    env: { ...process.env, AUTHLIB_INSECURE_TRANSPORT: '1', PYTHONDONTWRITEBYTECODE: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    async next<T>(what: string): Promise<T> {
      const line = await within(STEP_TIMEOUT_MS, what, lines.next());
      if (line.done) throw new Error(`authlib-client.py ended before ${what}: ${stderr}`);
      return JSON.parse(line.value) as T;
    },
    send(line: string) {
      child.stdin.write(`${line}\n`);
    },
    exited: () => within(STEP_TIMEOUT_MS, 'authlib-client.py exiting', exited),
    kill: () => child.kill(),
  };
}

test.override('listen', { scope: 'file' }, true);

describe('Python Authlib as a relying party', () => {
  let script: ReturnType<typeof startAuthlibClient> | undefined;

  test.beforeAll(async ({ registerClient }) => {
    await registerClient({ clientId: CLIENT_ID, redirectUris: [REDIRECT_URI] }, SECRET);
  });

  test.afterAll(() => {
    script?.kill();
  });

  it('validates our ID token, reads userinfo and refreshes', async ({ origin: issuer }) => {
    script = startAuthlibClient(issuer);
    const { authorization_url } = await script.next<{ authorization_url: string }>(
      'the authorization URL',
    );
    const url = new URL(authorization_url);
    expect(url.origin + url.pathname).toBe(`${issuer}/oauth/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('nonce')).toBeTruthy();

    const browser = new FormBrowser(issuer);
    const callback = await signInOnOurPages(browser, url, DemoUserEmail.alice);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    script.send(callback.href);

    const outcome = await script.next<AuthlibOutcome>('the code exchange and refresh');
    expect(outcome.error).toBeUndefined();
    expect(await script.exited()).toBe(0);

    const subject = String(ids.users.alice);
    expect(outcome.id_token_claims).toMatchObject({
      iss: issuer,
      aud: CLIENT_ID,
      sub: subject,
      nonce: url.searchParams.get('nonce'),
    });
    expect(outcome.userinfo).toMatchObject({ sub: subject, email: DemoUserEmail.alice });
    // The refresh gave a new access token (and a rotated refresh token) that userinfo accepts.
    expect(outcome.refreshed_access_token).not.toBe(outcome.first_access_token);
    expect(outcome.refreshed_refresh_token).toBeTruthy();
    expect(outcome.refreshed_refresh_token).not.toBe(outcome.first_refresh_token);
    expect(outcome.userinfo_after_refresh).toMatchObject({ sub: subject });
  });
});

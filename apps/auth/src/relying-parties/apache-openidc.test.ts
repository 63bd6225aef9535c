import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DemoUserEmail } from '@foodshare/domain';
import { freePort, waitFor } from '@foodshare/testing';
import { describe, expect, ids, test as base } from '../test-support/fixtures.ts';
import {
  FormBrowser,
  NavigatingBrowser,
  redirectTarget,
  showsLoginPage,
  signInOnOurPages,
  within,
} from './relying-party-harness.ts';

/**
 * Apache httpd with mod_auth_openidc (Debian's libapache2-mod-auth-openidc), the usual way to put
 * a sign-in in front of an application that has none: an Apache of the test's own, configured
 * from our discovery document, protects a page that shows the user's claims (server-side
 * includes of the OIDC_CLAIM_* variables the module sets). The module checks the ID token (our
 * keys, iss, aud, nonce), reads userinfo, and its logout URL sends the user on to our
 * end_session endpoint, which ends the session with us too.
 */

const APACHE = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';
const CLIENT_ID = 'apache-openidc-rp';
const SECRET = `apache-secret-${randomBytes(8).toString('hex')}`;
const STOP_TIMEOUT_MS = 10_000;

const CLAIMS_PAGE = `<!doctype html>
<title>Claims</title>
<p id="sub">sub=<!--#echo var="OIDC_CLAIM_sub" --></p>
<p id="email">email=<!--#echo var="OIDC_CLAIM_email" --></p>
`;

/** The httpd configuration: the settings a site adds for our server, and a minimal httpd. */
function apacheConfig(options: {
  dir: string;
  port: number;
  issuer: string;
  runAsRoot: boolean;
}): string {
  const { dir, port, issuer } = options;
  const origin = `http://127.0.0.1:${port}`;
  const modules = ['mpm_prefork', 'authn_core', 'authz_core', 'authz_user', 'include'];
  return [
    `ServerRoot "${dir}"`,
    `Listen 127.0.0.1:${port}`,
    `ServerName 127.0.0.1:${port}`,
    `PidFile "${dir}/httpd.pid"`,
    `DefaultRuntimeDir "${dir}"`,
    `Mutex file:${dir} default`,
    `ErrorLog "${dir}/error.log"`,
    'LogLevel warn auth_openidc:info',
    // httpd refuses to serve as root: the children take a system user (Debian's www-data).
    ...(options.runAsRoot ? ['User www-data', 'Group www-data'] : []),
    ...modules.map((name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`),
    `LoadModule auth_openidc_module ${MODULES}/mod_auth_openidc.so`,
    `DocumentRoot "${dir}/htdocs"`,
    '',
    '# What a site configures for our server:',
    `OIDCProviderMetadataURL ${issuer}/.well-known/openid-configuration`,
    `OIDCClientID ${CLIENT_ID}`,
    `OIDCClientSecret ${SECRET}`,
    `OIDCRedirectURI ${origin}/protected/redirect_uri`,
    `OIDCCryptoPassphrase ${randomBytes(24).toString('hex')}`,
    'OIDCScope "openid profile email"',
    'OIDCPKCEMethod S256',
    '<Location /protected>',
    '  AuthType openid-connect',
    '  Require valid-user',
    '  Options +Includes',
    '  SetOutputFilter INCLUDES',
    '</Location>',
    '',
  ].join('\n');
}

/** An Apache of the test's own, in the foreground (one process, -X), on a free port. */
async function startApache(issuer: string) {
  // Another process may take the port between the probe and Apache's bind: try a few.
  for (let attempt = 0; ; attempt++) {
    try {
      return await startApacheOnce(issuer);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('Address already in use')) throw error;
    }
  }
}

async function startApacheOnce(issuer: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'apache-openidc-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const runAsRoot = process.getuid?.() === 0;
  // The served files are read by the children as www-data when started as root.
  await chmod(dir, 0o755);
  await mkdir(path.join(dir, 'htdocs', 'protected'), { recursive: true });
  await writeFile(path.join(dir, 'htdocs', 'protected', 'claims.html'), CLAIMS_PAGE);
  await writeFile(path.join(dir, 'htdocs', 'signed-out.html'), 'signed out\n');
  await writeFile(path.join(dir, 'httpd.conf'), apacheConfig({ dir, port, issuer, runAsRoot }));

  let output = '';
  const child: ChildProcess = spawn(APACHE, ['-X', '-f', path.join(dir, 'httpd.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = () => readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');

  try {
    await Promise.race([
      waitFor(
        'Apache answering',
        async () => (await fetch(`${origin}/signed-out.html`)).status === 200,
        15_000,
      ),
      exited.then(() => {
        throw new Error('Apache exited');
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`Apache did not start: ${String(error)}\n${output}\n${await errorLog()}`, {
      cause: error,
    });
  }

  return {
    origin,
    errorLog,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await within(STOP_TIMEOUT_MS, 'Apache stopping', exited).catch(() => {
          child.kill('SIGKILL');
        });
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Apache on a port of its own, registered as a client of the listening server. */
const test = base.extend(
  'apache',
  { scope: 'file' },
  async ({ origin, registerClient }, { onCleanup }) => {
    const apache = await startApache(origin);
    onCleanup(() => apache.stop());
    await registerClient(
      {
        clientId: CLIENT_ID,
        redirectUris: [`${apache.origin}/protected/redirect_uri`],
        postLogoutRedirectUris: [`${apache.origin}/signed-out.html`],
      },
      SECRET,
    );
    return apache;
  },
);
const it = test;

test.override('listen', { scope: 'file' }, true);

describe('Apache mod_auth_openidc as a relying party', () => {
  it('protects a page with our sign-in, shows the claims, and logs out of our server too', async ({
    origin: issuer,
    apache,
  }) => {
    const site = new NavigatingBrowser(apache.origin);
    const ours = new FormBrowser(issuer);
    const claimsPage = `${apache.origin}/protected/claims.html`;

    try {
      const authorize = await redirectTarget(await site.navigate(claimsPage), apache.origin);
      expect(authorize.origin + authorize.pathname).toBe(`${issuer}/oauth/authorize`);
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize.searchParams.get('nonce')).toBeTruthy();

      const callback = await signInOnOurPages(ours, authorize, DemoUserEmail.alice);
      expect(callback.origin + callback.pathname).toBe(`${apache.origin}/protected/redirect_uri`);

      // The module redeems the code, checks the ID token and goes back to the page asked for.
      const back = await redirectTarget(await site.navigate(callback.href), apache.origin);
      expect(back.href).toBe(claimsPage);
      const page = await site.navigate(claimsPage);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`sub=${ids.users.alice}<`);
      expect(html).toContain(`email=${DemoUserEmail.alice}<`);

      // mod_auth_openidc's logout URL ends its session and sends the user to our end_session
      // endpoint with the ID token as hint; we end ours and send the user back to the site.
      const signedOut = `${apache.origin}/signed-out.html`;
      const endSession = await redirectTarget(
        await site.navigate(
          `${apache.origin}/protected/redirect_uri?logout=${encodeURIComponent(signedOut)}`,
        ),
        apache.origin,
      );
      expect(endSession.origin + endSession.pathname).toBe(`${issuer}/oauth/logout`);
      expect(endSession.searchParams.get('id_token_hint')).toBeTruthy();
      const leaving = await redirectTarget(await ours.request(endSession.href), issuer);
      expect(leaving.href).toBe(signedOut);

      // Signed out of both: the page asks for a sign-in again, and we ask for the password.
      const again = await redirectTarget(await site.navigate(claimsPage), apache.origin);
      expect(again.origin + again.pathname).toBe(`${issuer}/oauth/authorize`);
      expect(await showsLoginPage(ours, again)).toBe(true);
    } catch (error) {
      throw new Error(`${String(error)}\nApache's error log:\n${await apache.errorLog()}`, {
        cause: error,
      });
    }
  });
});

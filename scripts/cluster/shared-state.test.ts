import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { DemoClientId } from '@foodshare/domain';
import { waitFor } from '@foodshare/testing';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { login } from '../bench/sessions.ts';
import { runReadmeExamples } from '../readme-examples.ts';
import { type ClusterCommand, runClusterCommand } from './cluster-command.ts';
import { codeIssuedAt, redeemAt, refreshAt, userinfoStatus } from './oauth-at-instances.ts';
import { clusterTestStores } from './test-stores.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
// Short, so that a rotation reaches every instance within the test; the CLI is told too.
const SIGNING_KEY_REFRESH_SECONDS = 1;
const KEY_ENCRYPTION_KEY = randomBytes(32).toString('base64');

/** Runs a script of the repository with Node as `pnpm <script>` does; its exit code and output. */
async function runScript(script: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    ['--conditions=development', path.join(root, script), ...args],
    {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, output };
}

async function jwksAt(origin: string): Promise<JSONWebKeySet> {
  const response = await fetch(`${origin}/.well-known/jwks.json`, {
    signal: AbortSignal.timeout(5_000),
  });
  return (await response.json()) as JSONWebKeySet;
}

// `pnpm cluster` itself, 2 api and 2 auth instances behind Caddy: every piece of state a
// request leaves (sessions, authorization codes, refresh families, the deny list) is in
// PostgreSQL or Redis, so any instance honours what another one did.
describe('pnpm cluster: state shared by every instance', () => {
  let stores: Awaited<ReturnType<typeof clusterTestStores>>;
  let cluster: ClusterCommand;
  const origins = (service: 'api' | 'auth') =>
    [...cluster.instances].filter(([name]) => name.startsWith(`${service}-`)).map(([, o]) => o);

  beforeAll(async () => {
    stores = await clusterTestStores('state');
    cluster = await runClusterCommand({
      ...stores.env,
      KEY_ENCRYPTION_KEY,
      SIGNING_KEY_REFRESH_SECONDS: String(SIGNING_KEY_REFRESH_SECONDS),
    });
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    await stores?.dispose();
  });

  it('runs two instances of each service, each on its own port', () => {
    expect(origins('api')).toHaveLength(2);
    expect(origins('auth')).toHaveLength(2);
    expect(new Set(cluster.instances.values()).size).toBe(4);
  });

  it('honours a session made at one api instance at every api and auth instance', async () => {
    const [madeAt = '', ...others] = origins('api');
    // bob, not alice, whom the OAuth tests below sign in: the auth service learns of a logout
    // at the api up to BACKCHANNEL_LOGOUT_POLL_SECONDS later and then ends every grant the user
    // holds at that moment, codes issued after the logout included.
    const session = await login(madeAt, 'bob');
    for (const origin of [madeAt, ...others, cluster.origin]) {
      const current = await fetch(`${origin}/api/users/current`, {
        headers: { cookie: session.cookie },
      });
      expect(current.status, origin).toBe(200);
      expect(await current.json()).toMatchObject({ email: 'bob@example.org' });
    }
    // The authorization server's own pages read the same session: with it, the user's
    // connected apps; without it, the login page.
    for (const origin of [...origins('auth'), cluster.origin]) {
      const page = await fetch(`${origin}/connected-apps`, {
        headers: { cookie: session.cookie },
        redirect: 'manual',
      });
      expect(page.status, origin).toBe(200);
      await page.body?.cancel();
    }

    // Ended at another api instance (its CSRF token checked there): ended everywhere.
    const logout = await fetch(`${others[0]}/api/logout`, {
      method: 'POST',
      headers: session.writeHeaders,
    });
    expect(logout.status).toBeLessThan(300);
    for (const origin of [madeAt, ...others]) {
      const current = await fetch(`${origin}/api/users/current`, {
        headers: { cookie: session.cookie },
      });
      expect(current.status, origin).toBe(401);
      await current.body?.cancel();
    }
    const page = await fetch(`${origins('auth')[0]}/connected-apps`, {
      headers: { cookie: session.cookie },
      redirect: 'manual',
    });
    expect(page.status).toBe(302);
  });

  it('redeems a code issued by one auth instance at another', async () => {
    const [issuer = '', redeemer = ''] = origins('auth');
    const issued = await codeIssuedAt(cluster.baseUrl, issuer);
    const tokens = await redeemAt(issued, redeemer);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer' });
    for (const origin of origins('auth')) {
      expect(await userinfoStatus(origin, tokens.body.access_token ?? '')).toBe(200);
    }
  });

  it('redeems a code exactly once under 8 parallel requests spread over the instances', async () => {
    const auth = origins('auth');
    const issued = await codeIssuedAt(cluster.baseUrl, auth[0] ?? '');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => redeemAt(issued, auth[index % auth.length] ?? '')),
    );
    const granted = answers.filter((answer) => answer.status === 200);
    expect(granted, JSON.stringify(answers)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status !== 200).map((a) => a.body.error)).toEqual(
      Array.from({ length: 7 }, () => 'invalid_grant'),
    );
    // A code used twice revokes what it gave (docs/oauth.md §3.4), at every instance.
    for (const origin of auth) {
      expect(await userinfoStatus(origin, granted[0]?.body.access_token ?? '')).toBe(401);
    }
  });

  it('refuses at one instance a refresh token rotated at another, and ends the family', async () => {
    const [first = '', second = ''] = origins('auth');
    const issued = await codeIssuedAt(cluster.baseUrl, first);
    const tokens = await redeemAt(issued, first);
    const original = tokens.body.refresh_token ?? '';

    const rotated = await refreshAt(issued.tokenEndpoint, first, original);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(original);

    const replayed = await refreshAt(issued.tokenEndpoint, second, original);
    expect(replayed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The replay revoked the whole family (docs/oauth.md §3.6): the new refresh token and its
    // access token too, at either instance.
    const successor = await refreshAt(issued.tokenEndpoint, first, rotated.body.refresh_token!);
    expect(successor).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await userinfoStatus(second, rotated.body.access_token ?? '')).toBe(401);
  });

  it('passes `pnpm oidc:demo` through the proxy', async () => {
    const demo = await runScript('scripts/oidc-demo.ts', [cluster.baseUrl]);
    expect(demo.code, demo.output).toBe(0);
    expect(demo.stdout.match(/rotated, old one refused/g)).toHaveLength(2);
  }, 60_000);

  it('publishes a key rotated by `pnpm cli keys rotate` at every instance and signs with it, without a restart', async () => {
    const auth = origins('auth');
    const rotation = await runScript(
      'apps/cli/src/main.ts',
      ['keys', 'rotate', '--activate-after', '3s', '--json'],
      {
        DATABASE_URL: stores.env.DATABASE_URL,
        KEY_ENCRYPTION_KEY,
        SIGNING_KEY_REFRESH_SECONDS: String(SIGNING_KEY_REFRESH_SECONDS),
      },
    );
    expect(rotation.code, rotation.output).toBe(0);
    const rotatedAt = Date.now();
    const { kid, activatesAt } = JSON.parse(rotation.stdout) as {
      kid: string;
      activatesAt: string;
    };

    // Each instance re-reads the keys every SIGNING_KEY_REFRESH_SECONDS; a loaded machine may
    // run a timer late, hence the allowance.
    const bound = SIGNING_KEY_REFRESH_SECONDS * 1000 + 2_000;
    for (const origin of auth) {
      await waitFor(
        `${kid} in the JWKS of ${origin}`,
        async () => (await jwksAt(origin)).keys.some((key) => key.kid === kid),
        bound,
      );
    }
    const publishedAfter = Date.now() - rotatedAt;
    expect(publishedAfter).toBeLessThan(bound);
    console.log(
      `[key rotation] ${kid} in the JWKS of every auth instance ${publishedAfter} ms after the CLI returned (reload every ${SIGNING_KEY_REFRESH_SECONDS} s)`,
    );

    await waitFor('the new key signing', async () => Date.now() >= Date.parse(activatesAt), 10_000);
    // An ID token from every instance: one from the code exchange, then one per refresh.
    const issued = await codeIssuedAt(cluster.baseUrl, auth[0] ?? '');
    const first = await redeemAt(issued, auth[0] ?? '');
    const idTokens = [first.body.id_token ?? ''];
    let refreshToken = first.body.refresh_token ?? '';
    for (const origin of auth.slice(1)) {
      const refreshed = await refreshAt(issued.tokenEndpoint, origin, refreshToken);
      expect(refreshed.status).toBe(200);
      idTokens.push(refreshed.body.id_token ?? '');
      refreshToken = refreshed.body.refresh_token ?? '';
    }
    // As a relying party checks them: against the JWKS served through the proxy.
    const keys = createLocalJWKSet(await jwksAt(cluster.origin));
    for (const idToken of idTokens) {
      expect(decodeProtectedHeader(idToken).kid).toBe(kid);
      await expect(
        jwtVerify(idToken, keys, { issuer: cluster.baseUrl, audience: DemoClientId.public }),
      ).resolves.toBeDefined();
    }
  }, 60_000);

  it("answers the README's curl examples through the proxy", async () => {
    const statuses = await runReadmeExamples(cluster.baseUrl);
    expect(statuses.length).toBeGreaterThan(18);
    expect(statuses.filter((line) => !/^2\d\d /.test(line))).toEqual([]);
  }, 90_000);

  it('stops the proxy and every instance on SIGTERM, and exits with 0', async () => {
    expect(await cluster.stop()).toBe(0);
    expect(cluster.output()).toContain('[cluster] stopped\n');
    for (const origin of [cluster.origin, ...cluster.instances.values()]) {
      await expect(fetch(`${origin}/health/live`)).rejects.toThrow();
    }
  }, 60_000);
});

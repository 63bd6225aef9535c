import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { DemoClientId } from '@foodshare/domain';
import { freePort, waitFor } from '@foodshare/testing';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../bench/sessions.ts';
import { type Instance, type Service, startInstance } from '../cluster/instance.ts';
import {
  codeIssuedAt,
  redeemAt,
  refreshAt,
  userinfoStatus,
} from '../cluster/oauth-at-instances.ts';
import { type Proxy, startProxy } from '../cluster/proxy.ts';
import { clusterTestStores } from '../cluster/test-stores.ts';
import { releaseCheckout } from './previous-checkout.ts';
import { previousRelease, ROOT } from './previous-release.ts';

// Two adjacent releases side by side, as during a rolling update (docs/operations.md §1): the
// previous release (release.json, checked out from history and installed with its own
// lockfile) and this checkout, an api and an auth instance of each, on one database migrated
// to this release's schema and one Redis.

const run = promisify(execFile);
const previous = previousRelease();
const KEY_ENCRYPTION_KEY = randomBytes(32).toString('base64');
const SIGNING_KEY_REFRESH_SECONDS = 1;

type Release = 'previous' | 'current';
const RELEASES: Release[] = ['previous', 'current'];
const other = (release: Release): Release => (release === 'previous' ? 'current' : 'previous');

let previousRoot: string;
let stores: Awaited<ReturnType<typeof clusterTestStores>>;
let env: Record<string, string | undefined>;
let baseUrl: string;
let proxyPort: number;
let proxy: Proxy | undefined;
const instances = new Map<`${Service}-${Release}`, Instance>();
const at = (service: Service, release: Release) => instances.get(`${service}-${release}`)!.origin;
const checkout = (release: Release) => (release === 'previous' ? previousRoot : ROOT);

/** A command of a release's CLI on the test's database; its standard output. */
async function cli(release: Release, args: string[]): Promise<string> {
  const root = checkout(release);
  const main = path.join(root, 'apps', 'cli', 'src', 'main.ts');
  try {
    const { stdout } = await run(process.execPath, ['--conditions=development', main, ...args], {
      cwd: root,
      env,
      timeout: 180_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(
      `${release} cli ${args.join(' ')}: ${failed.stderr ?? ''}${failed.stdout ?? ''}`,
      { cause: error },
    );
  }
}

async function rowCounts(): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'
          and table_name <> 'mikro_orm_migrations' order by 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables.rows) {
      const result = await client.query<{ n: string }>(`select count(*) as n from "${name}"`);
      counts[name] = Number(result.rows[0]?.n);
    }
    return counts;
  } finally {
    await client.end();
  }
}

/** The proxy of `pnpm cluster` in front of the given instances, always on the same port. */
async function routeTo(api: Release[], auth: Release[]): Promise<void> {
  await proxy?.stop();
  proxy = await startProxy({
    host: '127.0.0.1',
    port: proxyPort,
    api: api.map((release) => instances.get(`api-${release}`)!),
    auth: auth.map((release) => instances.get(`auth-${release}`)!),
    log: () => undefined,
    readyTimeoutMs: 60_000,
  });
}

async function jwksAt(origin: string): Promise<JSONWebKeySet> {
  const response = await fetch(`${origin}/.well-known/jwks.json`, {
    signal: AbortSignal.timeout(5_000),
  });
  return (await response.json()) as JSONWebKeySet;
}

let countsBefore: Record<string, number>;
let countsAfter: Record<string, number>;

beforeAll(async () => {
  previousRoot = await releaseCheckout(previous);
  stores = await clusterTestStores('compat');
  proxyPort = await freePort();
  baseUrl = `http://localhost:${proxyPort}`;
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...stores.env,
    BASE_URL: baseUrl,
    KEY_ENCRYPTION_KEY,
    SIGNING_KEY_REFRESH_SECONDS: String(SIGNING_KEY_REFRESH_SECONDS),
    LOG_LEVEL: 'warn',
  };
  // The previous release's schema and data, grown as Hydra's migration tests grow theirs,
  // then this release's migrations on top.
  await cli('previous', ['db', 'migrate']);
  await cli('previous', ['demo', 'load']);
  await cli('previous', ['demo', 'grow', '--scale', '0.01']);
  countsBefore = await rowCounts();
  await cli('current', ['db', 'migrate']);
  countsAfter = await rowCounts();

  const started = await Promise.all(
    RELEASES.flatMap((release) =>
      (['api', 'auth'] as const).map(async (service) => {
        const instance = await startInstance(service, `${service}-${release}`, {
          env,
          root: checkout(release),
          log: () => undefined,
          readyTimeoutMs: 90_000,
        });
        instances.set(`${service}-${release}`, instance);
        return instance;
      }),
    ),
  );
  expect(started).toHaveLength(4);
  await routeTo(RELEASES, RELEASES);
}, 600_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all([...instances.values()].map((instance) => instance.stop()));
  await stores?.dispose();
});

describe(`release ${previous.version} beside this checkout, on one schema and one Redis`, () => {
  it("migrates the previous release's grown data without losing a row", () => {
    expect(countsBefore.users).toBeGreaterThan(100);
    for (const [table, count] of Object.entries(countsBefore)) {
      expect(countsAfter[table], table).toBe(count);
    }
  });

  it('honours a session made by either release at the other, and a logout at either', async () => {
    for (const release of RELEASES) {
      const session = await login(at('api', release), 'bob');
      for (const origin of [at('api', release), at('api', other(release))]) {
        const current = await fetch(`${origin}/api/users/current`, {
          headers: { cookie: session.cookie },
        });
        expect(current.status, `${release} session at ${origin}`).toBe(200);
        expect(await current.json()).toMatchObject({ email: 'bob@example.org' });
      }
      const page = await fetch(`${at('auth', other(release))}/connected-apps`, {
        headers: { cookie: session.cookie },
        redirect: 'manual',
      });
      expect(page.status, `${release} session at the other auth`).toBe(200);
      await page.body?.cancel();

      const logout = await fetch(`${at('api', other(release))}/api/logout`, {
        method: 'POST',
        headers: session.writeHeaders,
      });
      expect(logout.status).toBeLessThan(300);
      const after = await fetch(`${at('api', release)}/api/users/current`, {
        headers: { cookie: session.cookie },
      });
      expect(after.status).toBe(401);
      await after.body?.cancel();
    }
  });

  it('redeems a code issued by one release at the other', async () => {
    for (const release of RELEASES) {
      const issued = await codeIssuedAt(baseUrl, at('auth', release));
      const tokens = await redeemAt(issued, at('auth', other(release)));
      expect(tokens.status, `a code of the ${release} release`).toBe(200);
      for (const origin of [at('auth', release), at('auth', other(release))]) {
        expect(await userinfoStatus(origin, tokens.body.access_token ?? '')).toBe(200);
      }
    }
  });

  it('rotates a refresh token of one release at the other, and detects its reuse across them', async () => {
    for (const release of RELEASES) {
      const issued = await codeIssuedAt(baseUrl, at('auth', release));
      const tokens = await redeemAt(issued, at('auth', release));
      const original = tokens.body.refresh_token ?? '';
      const rotated = await refreshAt(issued.tokenEndpoint, at('auth', other(release)), original);
      expect(rotated.status, `a refresh token of the ${release} release`).toBe(200);

      const replayed = await refreshAt(issued.tokenEndpoint, at('auth', release), original);
      expect(replayed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      const successor = await refreshAt(
        issued.tokenEndpoint,
        at('auth', other(release)),
        rotated.body.refresh_token ?? '',
      );
      expect(successor).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect(await userinfoStatus(at('auth', release), rotated.body.access_token ?? '')).toBe(401);
    }
  });

  it('signs with a key that the other release rotated in', async () => {
    for (const release of RELEASES) {
      const rotation = JSON.parse(
        await cli(release, ['keys', 'rotate', '--activate-after', '3s', '--json']),
      ) as { kid: string; activatesAt: string };
      for (const origin of [at('auth', 'previous'), at('auth', 'current')]) {
        await waitFor(
          `${rotation.kid} in the JWKS of ${origin}`,
          async () => (await jwksAt(origin)).keys.some((key) => key.kid === rotation.kid),
          SIGNING_KEY_REFRESH_SECONDS * 1000 + 5_000,
        );
      }
      await waitFor(
        'the new key signing',
        async () => Date.now() >= Date.parse(rotation.activatesAt),
        10_000,
      );
      // Past activation, each instance picks the key up at its next reload.
      await new Promise((resolve) => setTimeout(resolve, SIGNING_KEY_REFRESH_SECONDS * 1000 + 500));
      const signer = at('auth', other(release));
      const issued = await codeIssuedAt(baseUrl, signer);
      const tokens = await redeemAt(issued, signer);
      const idToken = tokens.body.id_token ?? '';
      expect(
        decodeProtectedHeader(idToken).kid,
        `${release} rotated, ${other(release)} signs`,
      ).toBe(rotation.kid);
      const keys = createLocalJWKSet(await jwksAt(at('auth', release)));
      await expect(
        jwtVerify(idToken, keys, { issuer: baseUrl, audience: DemoClientId.public }),
      ).resolves.toBeDefined();
    }
  }, 60_000);

  // The previous release's README examples are what both releases serve; they change the
  // data they touch (a post hidden, a banana given), so they run once, on the previous release
  // alone. Each mix of a rolling update then answers a session's reads and a write, and a
  // sign-in, through the proxy.
  it("answers the previous release's README examples on the new schema", async () => {
    await routeTo(['previous'], ['previous']);
    const examples = (await import(
      pathToFileURL(path.join(previousRoot, 'scripts', 'readme-examples.ts')).href
    )) as { runReadmeExamples(origin: string): Promise<string[]> };
    const statuses = await examples.runReadmeExamples(baseUrl);
    expect(statuses.length).toBeGreaterThan(18);
    expect(statuses.filter((line) => !/^2\d\d /.test(line))).toEqual([]);
  }, 120_000);

  const mixes: { name: string; api: Release[]; auth: Release[] }[] = [
    { name: 'previous api, current auth', api: ['previous'], auth: ['current'] },
    { name: 'current api, previous auth', api: ['current'], auth: ['previous'] },
    { name: 'a rolling auth: both releases', api: ['current'], auth: ['previous', 'current'] },
    { name: 'a rolling api: both releases', api: ['previous', 'current'], auth: ['current'] },
  ];
  for (const mix of mixes) {
    it(`serves a session and a sign-in behind the proxy: ${mix.name}`, async () => {
      await routeTo(mix.api, mix.auth);
      const session = await login(baseUrl, 'alice');
      for (let round = 0; round < 2; round += 1) {
        const current = await fetch(`${baseUrl}/api/users/current`, {
          headers: { cookie: session.cookie },
        });
        expect(current.status).toBe(200);
        await current.body?.cancel();
        const sent = await fetch(`${baseUrl}/api/conversations/1/messages`, {
          method: 'POST',
          headers: session.writeHeaders,
          body: JSON.stringify({ body: `Who picks up on Friday? (${mix.name}, ${round})` }),
        });
        expect(sent.status).toBe(200);
        await sent.body?.cancel();
      }
      const apps = await fetch(`${baseUrl}/connected-apps`, {
        headers: { cookie: session.cookie },
        redirect: 'manual',
      });
      expect(apps.status).toBe(200);
      await apps.body?.cancel();

      const issued = await codeIssuedAt(baseUrl, proxy!.origin);
      const tokens = await redeemAt(issued, proxy!.origin);
      expect(tokens.status).toBe(200);
      const refreshed = await refreshAt(
        issued.tokenEndpoint,
        proxy!.origin,
        tokens.body.refresh_token ?? '',
      );
      expect(refreshed.status).toBe(200);
      expect(await userinfoStatus(proxy!.origin, refreshed.body.access_token ?? '')).toBe(200);
    }, 120_000);
  }
});

import { buildTestAuthServer } from './test-support/build-test-app.ts';
import { type ApiApp, buildApp as buildApiApp } from '@foodshare/api/app';
import { loadConfig as loadApiConfig } from '@foodshare/api/config';
import { DEMO_PASSWORD, DemoUserEmail } from '@foodshare/domain';
import { type SignedInClient, signInAs } from '@foodshare/server-kit/test-support';
import {
  type DisposableRedis,
  startDisposableRedis,
  testServiceEnv,
  waitFor,
} from '@foodshare/testing';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuthApp } from './app.ts';
import { loadConfig as loadAuthConfig } from './config.ts';
import { authorizeUrl } from './test-support/authorization-helpers.ts';
import {
  DemoClientId,
  refreshRequest,
  tokensFor,
  type TokenResponse,
} from './test-support/token-helpers.ts';

// A Redis that answers but refuses writes for a while: full under `noeviction` (OOM, as
// docs/authorization-server.md §1 asks it to be configured), or a replica after a failover (READONLY). Both services must
// say "try again" (503 with Retry-After), never 500, and serve again by themselves once Redis
// takes writes again. Redis servers of this file's own; the real bounds apply.

const ids = inject('demoIds');

const FILLER_KEYS = 2_000;
const FILL = `for i = 1, ${FILLER_KEYS} do redis.call('SET', 'filler:' .. i, string.rep('x', 1000)) end return 1`;
const EMPTY = `for i = 1, ${FILLER_KEYS} do redis.call('DEL', 'filler:' .. i) end return 1`;

describe('both services while Redis refuses writes', () => {
  let redis: DisposableRedis;
  let other: DisposableRedis;
  let api: ApiApp;
  let auth: AuthApp;
  let tokens: TokenResponse;
  let alice: SignedInClient;

  beforeAll(async () => {
    [redis, other] = await Promise.all([startDisposableRedis(), startDisposableRedis()]);
    const { env } = await testServiceEnv('auth');
    const faultEnv = {
      ...env,
      REDIS_URL: redis.url,
      REDIS_CONNECT_TIMEOUT_MS: '1000',
      REDIS_COMMAND_TIMEOUT_MS: '1000',
    };
    api = await buildApiApp(loadApiConfig(faultEnv));
    auth = await buildTestAuthServer(loadAuthConfig(faultEnv));
    await Promise.all([api.ready(), auth.ready()]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([api?.close(), auth?.close()]);
    await Promise.all([redis?.dispose(), other?.dispose()]);
  }, 30_000);

  const apiLogin = () =>
    api.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: DemoUserEmail.alice, password: DEMO_PASSWORD },
    });

  // Alice logs out; the refresh token is Bob's, which her logout leaves alone.
  const apiLogout = () =>
    api.inject({
      method: 'POST',
      url: '/api/logout',
      cookies: alice.cookies,
      headers: alice.headers,
    });

  /**
   * Each door writes to Redis: a session started or ended, a parked authorization request, a
   * rotated refresh token.
   */
  const doors = {
    'POST /api/login': apiLogin,
    'POST /api/logout': apiLogout,
    'GET /oauth/authorize': () => auth.inject({ method: 'GET', url: authorizeUrl() }),
    'POST /oauth/token (refresh)': () =>
      refreshRequest(auth, DemoClientId.public, tokens.refresh_token!),
  };

  function expectTryAgain(door: string, answer: LightMyRequestResponse) {
    expect(answer.statusCode, `${door}: ${answer.body}`).toBe(503);
    expect(answer.headers['retry-after'], door).toMatch(/^\d+$/);
    if (door.includes('/oauth/token')) {
      // The token endpoint answers in its RFC's shape (RFC 6749 5.2), as when Redis is lost.
      expect(answer.headers['content-type'], door).toMatch(/^application\/json/);
      expect(answer.json(), door).toMatchObject({ error: 'temporarily_unavailable' });
    } else {
      expect(answer.headers['content-type'], door).toMatch(/^application\/problem\+json/);
      expect(answer.json(), door).toMatchObject({
        status: 503,
        code: 'STATE_STORE_UNAVAILABLE',
      });
    }
  }

  async function expectEveryDoorSaysTryAgain() {
    for (const [door, send] of Object.entries(doors)) expectTryAgain(door, await send());
  }

  /** Every door as when Redis takes writes; the refresh token of before is still good. */
  async function expectEveryDoorServes() {
    expect((await apiLogin()).statusCode).toBe(200);
    expect((await apiLogout()).statusCode).toBe(200);
    expect((await doors['GET /oauth/authorize']()).statusCode).toBe(302);
    const refreshed = await doors['POST /oauth/token (refresh)']();
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    tokens = refreshed.json<TokenResponse>();
    alice = await signInAs(api, ids.users.alice);
  }

  it('answers 503 with Retry-After while Redis is out of memory, and serves once it is freed', async () => {
    tokens = await tokensFor(auth, { clientId: DemoClientId.public, userId: ids.users.bob });
    alice = await signInAs(api, ids.users.alice);
    await expectEveryDoorServes();
    const info = String(await redis.command('INFO', 'memory'));
    const used = Number(/^used_memory:(\d+)/m.exec(info)?.[1]);
    await redis.command('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
    await redis.command('CONFIG', 'SET', 'maxmemory', String(used + 512 * 1024));
    // One script: it started under the limit, so Redis lets it finish over it.
    await redis.command('EVAL', FILL, 0);
    await expect(redis.command('SET', 'probe', '1')).rejects.toThrow(/^OOM/);

    await expectEveryDoorSaysTryAgain();

    await redis.command('EVAL', EMPTY, 0);
    await expectEveryDoorServes();
  }, 30_000);

  it('answers 503 with Retry-After while Redis is a replica, and serves once it is promoted', async () => {
    // The other server takes a copy, then becomes the master this one follows: a failover
    // whose old master came back as a replica, with the data of before.
    await other.command('REPLICAOF', '127.0.0.1', redis.port);
    await waitFor('the copy', async () => linkUp(other));
    await other.command('REPLICAOF', 'NO', 'ONE');
    await redis.command('REPLICAOF', '127.0.0.1', other.port);
    await waitFor('the replica in sync', async () => linkUp(redis));
    await expect(redis.command('SET', 'probe', '1')).rejects.toThrow(/^READONLY/);

    await expectEveryDoorSaysTryAgain();

    await redis.command('REPLICAOF', 'NO', 'ONE');
    await expectEveryDoorServes();
  }, 30_000);
});

async function linkUp(server: DisposableRedis): Promise<boolean> {
  return /^master_link_status:up/m.test(String(await server.command('INFO', 'replication')));
}

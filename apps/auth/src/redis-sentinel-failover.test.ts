import { buildTestAuthServer } from './test-support/build-test-app.ts';
import { type ApiApp, buildApp as buildApiApp } from '@foodshare/api/app';
import { loadConfig as loadApiConfig } from '@foodshare/api/config';
import { signInAs } from '@foodshare/server-kit/test-support';
import {
  type DisposableSentinelRedis,
  startDisposableSentinelRedis,
  testServiceEnv,
  waitFor,
} from '@foodshare/testing';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuthApp } from './app.ts';
import { loadConfig as loadAuthConfig } from './config.ts';
import {
  DemoClientId,
  refreshRequest,
  tokensFor,
  type TokenResponse,
  userinfoRequest,
} from './test-support/token-helpers.ts';

// Both services on a Redis of this file's own behind three sentinels (docs/deploy.md §3).
// Under steady load the master is killed; the sentinels promote the replica and the services
// must serve again through it within seconds, answering 503 (never 500, never hanging) in
// between, with the sessions and tokens written before the failover still good.

const ids = inject('demoIds');

const REQUEST_INTERVAL_MS = 25;
const REQUEST_BOUND_MS = 5_000;
/** down-after-milliseconds 1 s, then the vote and the promotion: a few seconds in all. */
const OUTAGE_LIMIT_MS = 8_000;
/** Answers in a row that count as serving again. */
const HEALTHY_STREAK = 10;

interface Sample {
  at: number;
  status: number | 'hung';
}

/** One request after another, each bounded, until stopped; every answer is kept. */
function steadyLoad(request: () => Promise<LightMyRequestResponse>) {
  const samples: Sample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<'hung'>((resolve) => {
        timer = setTimeout(() => resolve('hung'), REQUEST_BOUND_MS);
      });
      const answer = await Promise.race([request(), hung]);
      clearTimeout(timer);
      samples.push({ at, status: answer === 'hung' ? 'hung' : answer.statusCode });
      await new Promise((resolve) => setTimeout(resolve, REQUEST_INTERVAL_MS));
    }
  })();
  return {
    samples,
    /** The last `count` answers were all 200. */
    healthyFor: (count: number) =>
      samples.length >= count && samples.slice(-count).every((sample) => sample.status === 200),
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

type Load = ReturnType<typeof steadyLoad>;

/** The failover as one service saw it, from the kill on. */
function figures(load: Load, killedAt: number) {
  const after = load.samples.filter((sample) => sample.at >= killedAt);
  const failed = after.filter((sample) => sample.status !== 200);
  const lastFailure = failed.at(-1);
  const recovered = lastFailure
    ? after.find((sample) => sample.at > lastFailure.at && sample.status === 200)
    : after[0];
  return {
    before: load.samples.filter((sample) => sample.at < killedAt),
    after,
    failed,
    outageMs: recovered ? recovered.at - killedAt : Number.POSITIVE_INFINITY,
  };
}

/** The figures of the failover, printed whether or not the test passes. */
function report(loads: Record<string, Load>, killedAt: number, oldMaster: number, status: string) {
  console.log(`[sentinel failover] master port ${oldMaster} killed; ${status}`);
  for (const [service, load] of Object.entries(loads)) {
    const seen = figures(load, killedAt);
    const statuses = [...new Set(seen.failed.map((sample) => sample.status))].join(', ');
    console.log(
      `[sentinel failover] ${service}: served again ${(seen.outageMs / 1000).toFixed(2)} s ` +
        `after the master was killed; ${seen.failed.length} of ${seen.after.length} requests ` +
        `since failed (${statuses || 'none'})`,
    );
  }
}

describe('both services when the Redis master fails over', () => {
  let redis: DisposableSentinelRedis;
  let api: ApiApp;
  let auth: AuthApp;
  let tokens: TokenResponse;

  beforeAll(async () => {
    redis = await startDisposableSentinelRedis({ downAfterMs: 1_000, failoverTimeoutMs: 3_000 });
    const { env } = await testServiceEnv('auth');
    const sentinelEnv = {
      ...env,
      // Nothing listens here: behind Sentinel the URL's host is ignored.
      REDIS_URL: 'redis://127.0.0.1:1',
      REDIS_SENTINELS: redis.sentinels,
      REDIS_SENTINEL_MASTER: redis.masterName,
      // The real bounds: the outage is measured as production would see it.
      REDIS_CONNECT_TIMEOUT_MS: '1000',
      REDIS_COMMAND_TIMEOUT_MS: '1000',
    };
    api = await buildApiApp(loadApiConfig(sentinelEnv));
    auth = await buildTestAuthServer(loadAuthConfig(sentinelEnv));
    await Promise.all([api.ready(), auth.ready()]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([api?.close(), auth?.close()]);
    await redis?.dispose();
  }, 30_000);

  it('serves again through the promoted replica within seconds, with the sessions and tokens of before', async () => {
    const alice = await signInAs(api, ids.users.alice);
    tokens = await tokensFor(auth, { clientId: DemoClientId.public, userId: ids.users.bob });
    // Written to the master; a failover keeps only what reached the replica.
    expect(await redis.replicate()).toBe(1);

    const loads = {
      api: steadyLoad(() =>
        api.inject({ method: 'GET', url: '/api/users/current', cookies: alice.cookies }),
      ),
      auth: steadyLoad(() => userinfoRequest(auth, tokens.access_token)),
    };
    const stopAll = () => Promise.all(Object.values(loads).map((load) => load.stop()));
    let killedAt = 0;
    let oldMaster = 0;
    try {
      await waitFor('steady load', async () =>
        Object.values(loads).every((load) => load.healthyFor(HEALTHY_STREAK)),
      );
      killedAt = performance.now();
      oldMaster = await redis.killMaster();
      await waitFor(
        'both services serving again',
        async () =>
          (await redis.masterPort()) !== oldMaster &&
          Object.values(loads).every((load) => {
            const last = load.samples.at(-HEALTHY_STREAK);
            return last !== undefined && last.at > killedAt && load.healthyFor(HEALTHY_STREAK);
          }),
        20_000,
      );
    } finally {
      await stopAll();
      report(loads, killedAt, oldMaster, await redis.status());
    }

    for (const load of Object.values(loads)) {
      const seen = figures(load, killedAt);
      expect(seen.before.every((sample) => sample.status === 200)).toBe(true);
      // In between, the services say "try again" quickly: no 500, no request left hanging.
      expect(seen.failed.every((sample) => sample.status === 503)).toBe(true);
      expect(seen.outageMs).toBeLessThan(OUTAGE_LIMIT_MS);
    }

    expect(await redis.masterPort()).not.toBe(oldMaster);
    // The session and the refresh token were written before the failover and live on.
    const current = await api.inject({
      method: 'GET',
      url: '/api/users/current',
      cookies: alice.cookies,
    });
    expect(current.statusCode).toBe(200);
    expect(current.json()).toMatchObject({ id: ids.users.alice });
    const refreshed = await refreshRequest(auth, DemoClientId.public, tokens.refresh_token!);
    expect(refreshed.statusCode).toBe(200);
    for (const app of [api, auth]) {
      const ready = await app.inject('/health/ready');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ checks: { keyValueStore: 'ok' } });
      // The metrics tell the outage afterwards: connected again, with the commands it cost.
      const metrics = (await app.inject('/metrics')).body;
      expect(metrics).toMatch(/^redis_connected 1$/m);
      expect(
        Number(/^redis_unavailable_failures_total (\d+)$/m.exec(metrics)?.[1]),
      ).toBeGreaterThan(0);
    }
  }, 45_000);
});

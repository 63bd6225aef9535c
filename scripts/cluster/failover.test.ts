import { waitFor } from '@foodshare/testing';
import { login } from '../bench/sessions.ts';
import type { Instance } from './instance.ts';
import { type Cluster, startCluster } from './start-cluster.ts';
import { type Sent, steadyLoad } from './steady-load.ts';
import { clusterTestStores } from './test-stores.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CONCURRENCY = 8;
const ROUTE = '/api/users/current';

/** How many answers 200 to GET ROUTE the instance has given, from its own metrics. */
async function answered(instance: Instance): Promise<number> {
  const response = await fetch(`${instance.origin}/metrics`, {
    signal: AbortSignal.timeout(5_000),
  });
  return (await response.text())
    .split('\n')
    .filter(
      (line) =>
        line.startsWith('http_request_duration_seconds_count{') &&
        line.includes(`route="${ROUTE}"`) &&
        line.includes('status_code="200"'),
    )
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

const failed = (sent: readonly Sent[]) => sent.filter((request) => request.outcome !== 200);
const slowest = (sent: readonly Sent[]) =>
  Math.max(0, ...sent.map((request) => request.endedAt - request.startedAt));

// Three api instances behind Caddy under a steady load of logged-in reads through the proxy;
// one stops gracefully, then one dies. The proxy must route around both without the clients
// noticing, beyond the requests the dead one held.
describe('pnpm cluster: an api instance stopping or dying under load', () => {
  let stores: Awaited<ReturnType<typeof clusterTestStores>>;
  let cluster: Cluster;
  let cookie = '';
  const logs: string[] = [];
  const loadThroughProxy = () =>
    steadyLoad(`${cluster.origin}${ROUTE}`, { headers: { cookie }, concurrency: CONCURRENCY });
  const answeredSince = (sent: readonly Sent[], since: number) =>
    sent.filter((request) => request.startedAt > since && request.outcome === 200).length;

  beforeAll(async () => {
    stores = await clusterTestStores('failover');
    cluster = await startCluster({
      instances: { api: 3, auth: 1 },
      host: '127.0.0.1',
      port: 0,
      env: { ...stores.env, LOG_LEVEL: 'warn' },
      log: (line) => logs.push(line),
    });
    cookie = (await login(cluster.origin, 'alice')).cookie;
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    await stores?.dispose();
  });

  it('loses no request when an instance stops on SIGTERM', async () => {
    const [draining] = cluster.instances.api as [Instance];
    const load = loadThroughProxy();
    await waitFor('100 answers', async () => load.sent().length >= 100, 30_000);

    const stopAt = Date.now();
    expect(await draining.stop('SIGTERM')).toBe(0);
    const exitedAt = Date.now();
    await waitFor(
      '200 answers after the exit',
      async () => answeredSince(load.sent(), exitedAt) >= 200,
      30_000,
    );
    const sent = await load.stop();

    expect(failed(sent)).toEqual([]);
    console.log(
      `[failover] SIGTERM: ${sent.length} requests, 0 failed; the instance drained and exited in ${exitedAt - stopAt} ms; slowest answer ${slowest(sent)} ms`,
    );
  }, 90_000);

  it('loses at most the requests a SIGKILLed instance held, and routes to the survivor', async () => {
    const [, dying, survivor] = cluster.instances.api as [Instance, Instance, Instance];
    const load = loadThroughProxy();
    await waitFor('100 answers', async () => load.sent().length >= 100, 30_000);

    const servedBefore = await answered(survivor);
    const killedAt = Date.now();
    dying.child.kill('SIGKILL');
    await dying.exited;
    await waitFor(
      '300 answers after the kill',
      async () => answeredSince(load.sent(), killedAt) >= 300,
      30_000,
    );
    const sent = await load.stop();
    const servedAfter = await answered(survivor);

    const failures = failed(sent);
    // Only requests under way at the kill may fail; every one sent after it is routed around.
    expect(failures.length).toBeLessThanOrEqual(CONCURRENCY);
    expect(failures.filter((request) => request.startedAt > killedAt)).toEqual([]);
    // Every answer after the kill came from the one instance left.
    expect(servedAfter - servedBefore).toBeGreaterThanOrEqual(answeredSince(sent, killedAt));
    const afterKill = sent.filter(
      (request) => request.startedAt >= killedAt && request.startedAt < killedAt + 2_000,
    );
    console.log(
      `[failover] SIGKILL: ${sent.length} requests, ${failures.length} failed; slowest answer in the 2 s after the kill ${slowest(afterKill)} ms, before it ${slowest(sent.filter((request) => request.endedAt < killedAt))} ms`,
    );
  }, 90_000);
});

import { randomBytes } from 'node:crypto';
import { waitFor } from '@foodshare/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../bench/sessions.ts';
import { type ClusterCommand, runClusterCommand } from '../cluster/cluster-command.ts';
import { clusterTestStores } from '../cluster/test-stores.ts';
import { releaseCheckout } from './previous-checkout.ts';
import { previousRelease } from './previous-release.ts';

// `pnpm cluster --roll DIR`: two instances of each service, replaced one by one with the code
// of another checkout (here the previous release: a rollback) while a steady load runs.
describe('pnpm cluster --roll: a rolling update under a steady load', () => {
  let stores: Awaited<ReturnType<typeof clusterTestStores>>;
  let cluster: ClusterCommand;
  const rolledLine =
    /rolled (\d+) instances to \S+ in ([\d.]+) s under a steady load: (\d+) requests, (\d+) failed/;

  beforeAll(async () => {
    const previous = previousRelease();
    const previousRoot = await releaseCheckout(previous);
    stores = await clusterTestStores('roll');
    cluster = await runClusterCommand(
      { ...stores.env, KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64') },
      90_000,
      ['--roll', previousRoot],
    );
  }, 600_000);

  afterAll(async () => {
    await cluster?.stop();
    await stores?.dispose();
  });

  it('replaces every instance and fails no request of the load', async () => {
    await waitFor(
      'the rolling update to end',
      async () => rolledLine.test(cluster.output()),
      180_000,
    );
    const [, instances, seconds, requests, failed] = rolledLine.exec(cluster.output()) ?? [];
    console.log(
      `[rolling update] ${instances} instances in ${seconds} s: ${requests} requests, ${failed} failed`,
    );
    expect(Number(instances)).toBe(4);
    expect(Number(requests)).toBeGreaterThan(100);
    expect(
      Number(failed),
      cluster
        .output()
        .split('\n')
        .filter((line) => line.includes('failed'))
        .join('\n'),
    ).toBe(0);
    expect(cluster.output()).not.toContain('the rolling update stopped');

    // The replaced instances serve on the same ports, behind the same proxy.
    const session = await login(cluster.origin, 'bob');
    for (const [name, origin] of cluster.instances) {
      const route = name.startsWith('api-')
        ? '/api/users/current'
        : '/.well-known/openid-configuration';
      const answer = await fetch(`${origin}${route}`, { headers: { cookie: session.cookie } });
      expect(answer.status, name).toBe(200);
      await answer.body?.cancel();
    }
  }, 240_000);
});

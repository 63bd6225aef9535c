import { startDisposableSentinelRedis, waitFor } from '@foodshare/testing';
import { Redis } from 'ioredis';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseRedisEndpoints } from './redis-connection.ts';
import { RedisKeyValueStore } from './redis-store.ts';

describe('a store behind Sentinel', () => {
  // ioredis gave up for good (status `end`) when a failover's +switch-master arrived while it
  // was asking a sentinel for the master: both services then answered 503 until restarted
  // (seen in apps/auth/src/redis-sentinel-failover.test.ts under load). Here the question is
  // held by a paused sentinel (for up to 5 s; a forced failover takes about 1), so the
  // announcement lands during it; `ended` shows that it did.
  it('connects again when a failover is announced while it asks a sentinel for the master', async () => {
    const redis = await startDisposableSentinelRedis();
    onTestFinished(() => redis.dispose());
    const sentinels = parseRedisEndpoints(redis.sentinels) ?? [];
    const store = new RedisKeyValueStore({
      url: 'redis://127.0.0.1:1',
      sentinel: { sentinels, masterName: redis.masterName },
      timeouts: { connectMs: 1_000, commandMs: 1_000 },
    });
    await store.connect();
    onTestFinished(() => store.close());
    // Counted to show the race happened: ioredis ended the client, and the store started it.
    let ended = 0;
    store.client.on('end', () => (ended += 1));
    await store.set('before', 'kept', 60_000);
    expect(await redis.replicate()).toBe(1);

    // ioredis asks the sentinel that answered last, the first of the list, first.
    const resume = redis.pauseSentinel(0);
    onTestFinished(resume);
    const announcements = new Redis({ host: '127.0.0.1', port: sentinels[1]?.port ?? 0 });
    onTestFinished(() => announcements.disconnect());
    await announcements.subscribe('+switch-master');
    const announced = new Promise((resolve) => announcements.once('message', resolve));

    // The store's connection cut: it reconnects, and its question waits on the paused sentinel.
    await redis.dropClients();
    await redis.failover(1);
    await announced;
    // The store heard it too (from the same sentinel); then the pending question is answered.
    await new Promise((resolve) => setTimeout(resolve, 200));
    resume();

    await waitFor(
      'the store serving again',
      async () => (await store.get('before')) === 'kept',
      15_000,
    );
    expect(ended).toBeGreaterThan(0);
  }, 60_000);
});

import { freePort } from '@foodshare/testing';
import { describe, expect, it } from 'vitest';
import { describeRedis } from './redis-connection.ts';
import {
  RedisKeyValueStore,
  sentinelConnectBoundMs,
  StateStoreUnavailableError,
} from './redis-store.ts';

describe('a Redis connection', () => {
  it('is described without its passwords', () => {
    expect(describeRedis({ url: 'redis://:data-secret@redis.internal:6379' })).toBe(
      'redis://:***@redis.internal:6379',
    );
    const behindSentinel = describeRedis({
      url: 'redis://:data-secret@ignored:6379',
      sentinel: {
        sentinels: [
          { host: 'a', port: 26379 },
          { host: 'b', port: 26379 },
        ],
        masterName: 'foodshare',
        password: 'sentinel-secret',
      },
    });
    expect(behindSentinel).toBe('master "foodshare" of the sentinels a:26379,b:26379');
    expect(behindSentinel).not.toMatch(/secret/);
  });

  it('through sentinels none of which answers, fails to connect within its bound instead of waiting for ever', async () => {
    const [first, second] = await Promise.all([freePort(), freePort()]);
    const timeouts = { connectMs: 200, commandMs: 200 };
    const store = new RedisKeyValueStore({
      url: 'redis://127.0.0.1:1',
      sentinel: {
        sentinels: [
          { host: '127.0.0.1', port: first },
          { host: '127.0.0.1', port: second },
        ],
        masterName: 'mymaster',
      },
      timeouts,
    });
    const started = performance.now();
    await expect(store.connect()).rejects.toBeInstanceOf(StateStoreUnavailableError);
    // Its bound (each sentinel asked once, then the master), and a little for a busy machine.
    expect(performance.now() - started).toBeLessThan(sentinelConnectBoundMs(2, timeouts) + 500);
    await store.close();
  });
});

import { workerRedis } from '@foodshare/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisKeyValueStore } from './redis-store.ts';

/** The socket's writes to the kernel: one per write system call (write or writev). */
function countSocketWrites(store: RedisKeyValueStore): { count: () => number; stop: () => void } {
  const socket = store.client.stream as unknown as {
    _write: (...args: unknown[]) => unknown;
    _writev: (...args: unknown[]) => unknown;
  };
  const { _write: write, _writev: writev } = socket;
  let writes = 0;
  socket._write = (...args) => ((writes += 1), write.apply(socket, args));
  socket._writev = (...args) => ((writes += 1), writev.apply(socket, args));
  return {
    count: () => writes,
    stop: () => Object.assign(socket, { _write: write, _writev: writev }),
  };
}

describe('RedisKeyValueStore socket writes', () => {
  let store: RedisKeyValueStore;

  beforeAll(async () => {
    store = await new RedisKeyValueStore(workerRedis('kv-writes')).connect();
  });
  afterAll(() => store.close());

  it('writes the commands sent in one tick in one system call, in their order', async () => {
    const writes = countSocketWrites(store);
    try {
      const [, , read, ttl] = await Promise.all([
        store.set('a', '1', 60_000),
        store.increment('b', 60_000),
        store.getMany('a', 'b'),
        store.ttlMs('a'),
      ]);
      expect(read).toEqual(['1', '1']);
      expect(ttl).toBeGreaterThan(59_000);
      expect(writes.count()).toBe(1);
    } finally {
      writes.stop();
    }
  });

  it('writes a command awaited before the next one on its own, without waiting for more', async () => {
    const writes = countSocketWrites(store);
    try {
      await store.set('c', 'first', 60_000);
      expect(await store.get('c')).toBe('first');
      expect(writes.count()).toBe(2);
    } finally {
      writes.stop();
    }
  });
});

import { workerRedis } from '@foodshare/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyValueStore } from './key-value-store.ts';
import { MemoryKeyValueStore } from './memory-store.ts';
import { RedisKeyValueStore } from './redis-store.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// One contract, two implementations: the in-process store must behave like Redis, or the
// zero-set-up start would hide bugs that production then shows.
const implementations: [string, () => Promise<KeyValueStore>][] = [
  [
    'redis',
    () => {
      const { url, keyPrefix } = workerRedis('kv');
      return new RedisKeyValueStore({ url, keyPrefix }).connect();
    },
  ],
  ['memory', () => Promise.resolve(new MemoryKeyValueStore())],
];

describe.each(implementations)('KeyValueStore contract: %s', (_name, open) => {
  let store: KeyValueStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  it('returns what was set and null for a missing key', async () => {
    await store.set('a', 'one', 10_000);
    expect(await store.get('a')).toBe('one');
    expect(await store.get('missing')).toBeNull();
  });

  it('forgets a key once its lifetime has passed', async () => {
    await store.set('short', 'x', 50);
    expect(await store.get('short')).toBe('x');
    await sleep(80);
    expect(await store.get('short')).toBeNull();
    expect(await store.ttlMs('short')).toBeNull();
  });

  it('setIfAbsent writes once and refuses while the key lives', async () => {
    expect(await store.setIfAbsent('once', '1', 10_000)).toBe(true);
    expect(await store.setIfAbsent('once', '2', 10_000)).toBe(false);
    expect(await store.get('once')).toBe('1');
  });

  it('take hands a value to exactly one of many concurrent callers', async () => {
    await store.set('code', 'secret', 10_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => store.take('code')));
    expect(results.filter((value) => value === 'secret')).toHaveLength(1);
    expect(await store.get('code')).toBeNull();
  });

  it('delete removes several keys at once and accepts none', async () => {
    await store.set('d1', '1', 10_000);
    await store.set('d2', '2', 10_000);
    await store.delete('d1', 'd2');
    await store.delete();
    expect(await store.get('d1')).toBeNull();
    expect(await store.get('d2')).toBeNull();
  });

  it('expire changes the lifetime of an existing key only', async () => {
    await store.set('e', 'v', 50);
    expect(await store.expire('e', 10_000)).toBe(true);
    await sleep(80);
    expect(await store.get('e')).toBe('v');
    const ttl = await store.ttlMs('e');
    expect(ttl).toBeGreaterThan(9_000);
    expect(ttl).toBeLessThanOrEqual(10_000);
    expect(await store.expire('nothing', 1_000)).toBe(false);
  });

  it('increment counts within a fixed window that later increments do not extend', async () => {
    const first = await store.increment('counter', 100);
    expect(first.count).toBe(1);
    expect(first.ttlMs).toBeGreaterThan(0);
    await sleep(40);
    const second = await store.increment('counter', 100);
    expect(second.count).toBe(2);
    expect(second.ttlMs).toBeLessThanOrEqual(first.ttlMs - 30);
    await sleep(90);
    expect((await store.increment('counter', 100)).count).toBe(1);
  });

  it('increment is atomic under concurrency', async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, () => store.increment('burst', 10_000)),
    );
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
  });

  it('keeps set members, removes one, and expires the set as a whole', async () => {
    await store.addToSet('s', 'a', 10_000);
    await store.addToSet('s', 'b', 10_000);
    await store.addToSet('s', 'a', 10_000);
    expect((await store.setMembers('s')).sort()).toEqual(['a', 'b']);
    await store.removeFromSet('s', 'a');
    expect(await store.setMembers('s')).toEqual(['b']);
    await store.addToSet('gone', 'x', 50);
    await sleep(80);
    expect(await store.setMembers('gone')).toEqual([]);
  });

  it('answers ping while open', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

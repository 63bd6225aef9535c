import { workerRedis } from '@foodshare/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyValueStore } from './key-value-store.ts';
import { MemoryKeyValueStore } from './memory-store.ts';
import { RedisKeyValueStore } from './redis-store.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Lifetimes long enough that a busy CI machine cannot let them pass between two calls.
const SHORT_MS = 300;
const PAST_SHORT_MS = 400;

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

  it('reads several keys at once, in order, null for missing ones and for an index', async () => {
    await store.set('m1', 'one', 10_000);
    await store.set('m2', 'two', 10_000);
    await store.addToIndex('m-index', 'member', 1, { ttlMs: 10_000, pruneBelow: 0 });
    expect(await store.getMany('m2', 'missing', 'm1', 'm-index')).toEqual([
      'two',
      null,
      'one',
      null,
    ]);
    expect(await store.getMany()).toEqual([]);
  });

  it('forgets a key once its lifetime has passed', async () => {
    await store.set('short', 'x', SHORT_MS);
    expect(await store.get('short')).toBe('x');
    await sleep(PAST_SHORT_MS);
    expect(await store.get('short')).toBeNull();
    expect(await store.ttlMs('short')).toBeNull();
  });

  it('setIfAbsent writes once and refuses while the key lives', async () => {
    expect(await store.setIfAbsent('once', '1', 10_000)).toBe(true);
    expect(await store.setIfAbsent('once', '2', 10_000)).toBe(false);
    expect(await store.get('once')).toBe('1');
  });

  it('setIfPresent replaces a live key only, with its new lifetime', async () => {
    await store.set('present', '1', SHORT_MS);
    expect(await store.setIfPresent('present', '2', 10_000)).toBe(true);
    await sleep(PAST_SHORT_MS);
    expect(await store.get('present')).toBe('2');
    expect(await store.ttlMs('present')).toBeGreaterThan(9_000);
    expect(await store.setIfPresent('absent', '1', 10_000)).toBe(false);
    expect(await store.get('absent')).toBeNull();
  });

  it('setIfHigher keeps the largest number, in whatever order the callers come', async () => {
    expect(await store.setIfHigher('mark', 20, 10_000)).toBe(true);
    expect(await store.setIfHigher('mark', 10, 10_000)).toBe(false);
    expect(await store.get('mark')).toBe('20');
    expect(await store.setIfHigher('mark', 30, 10_000)).toBe(true);
    await Promise.all([5, 50, 40].map((value) => store.setIfHigher('mark', value, 10_000)));
    expect(await store.get('mark')).toBe('50');
    expect(await store.ttlMs('mark')).toBeGreaterThan(0);
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
    await store.set('e', 'v', SHORT_MS);
    expect(await store.expire('e', 10_000)).toBe(true);
    await sleep(PAST_SHORT_MS);
    expect(await store.get('e')).toBe('v');
    const ttl = await store.ttlMs('e');
    expect(ttl).toBeGreaterThan(9_000);
    expect(ttl).toBeLessThanOrEqual(10_000);
    expect(await store.expire('nothing', 1_000)).toBe(false);
  });

  it('increment counts within a fixed window that later increments do not extend', async () => {
    const first = await store.increment('counter', SHORT_MS);
    expect(first.count).toBe(1);
    expect(first.ttlMs).toBeGreaterThan(0);
    await sleep(100);
    const second = await store.increment('counter', SHORT_MS);
    expect(second.count).toBe(2);
    expect(second.ttlMs).toBeLessThanOrEqual(first.ttlMs - 80);
    await sleep(PAST_SHORT_MS);
    expect((await store.increment('counter', SHORT_MS)).count).toBe(1);
  });

  it('increment is atomic under concurrency', async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, () => store.increment('burst', 10_000)),
    );
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
  });

  it('incrementUnlessReached takes a place only while its guard is below the limit', async () => {
    expect(
      await store.incrementUnlessReached('places', 10_000, { key: 'guard', limit: 2 }),
    ).toMatchObject({ reached: false, count: 1 });
    await store.increment('guard', 5_000);
    const second = await store.incrementUnlessReached('places', 10_000, { key: 'guard', limit: 2 });
    expect(second).toMatchObject({ reached: false, count: 2 });
    expect(second.ttlMs).toBeGreaterThan(9_000);
    await store.increment('guard', 5_000);
    const refused = await store.incrementUnlessReached('places', 10_000, {
      key: 'guard',
      limit: 2,
    });
    expect(refused.reached).toBe(true);
    // The guard's lifetime, not the counter's: how long until a place may be taken again.
    expect(refused.ttlMs).toBeGreaterThan(4_000);
    expect(refused.ttlMs).toBeLessThanOrEqual(5_000);
    expect(await store.get('places')).toBe('2');
    await expect(
      store.incrementUnlessReached('places', 0, { key: 'guard', limit: 2 }),
    ).rejects.toThrow(RangeError);
  });

  it('incrementUnlessReached hands concurrent callers distinct places, window as increment', async () => {
    await store.increment('burst-guard', 10_000);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        store.incrementUnlessReached('burst-places', SHORT_MS, { key: 'burst-guard', limit: 2 }),
      ),
    );
    expect(results.map((r) => (r.reached ? 0 : r.count)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
    await sleep(PAST_SHORT_MS);
    expect(await store.get('burst-places')).toBeNull();
  });

  it('incrementUnlessReached takes a place when places given back left the counter below zero', async () => {
    // Places taken in one window and given back into the next, which another request had
    // already started: the counter goes below zero, and is still no refusal.
    await store.increment('late-places', 10_000);
    for (let given = 0; given < 3; given++) await store.increment('late-places', 10_000, -1);
    expect(await store.get('late-places')).toBe('-2');
    expect(
      await store.incrementUnlessReached('late-places', 10_000, { key: 'late-guard', limit: 5 }),
    ).toMatchObject({ reached: false, count: -1 });
  });

  it('setUnlessLeasedToOther writes unless another holder has the lease', async () => {
    expect(await store.setUnlessLeasedToOther('k', 'free', 10_000, { key: 'l', holder: 'a' })).toBe(
      true,
    );
    expect(await store.get('k')).toBe('free');
    await store.set('l', 'a', 10_000);
    expect(await store.setUnlessLeasedToOther('k', 'own', 10_000, { key: 'l', holder: 'a' })).toBe(
      true,
    );
    expect(await store.get('k')).toBe('own');
    expect(await store.ttlMs('k')).toBeGreaterThan(9_000);
    expect(
      await store.setUnlessLeasedToOther('k', 'other', 10_000, { key: 'l', holder: 'b' }),
    ).toBe(false);
    expect(await store.get('k')).toBe('own');
    await expect(
      store.setUnlessLeasedToOther('k', 'x', -1, { key: 'l', holder: 'a' }),
    ).rejects.toThrow(RangeError);
  });

  it('reads a value together with its remaining lifetime', async () => {
    await store.set('w', 'value', 10_000);
    const found = await store.getWithTtl('w');
    expect(found?.value).toBe('value');
    expect(found?.ttlMs).toBeGreaterThan(9_000);
    expect(found?.ttlMs).toBeLessThanOrEqual(10_000);
    expect(await store.getWithTtl('missing')).toBeNull();
  });

  it('refuses a lifetime that is not positive', async () => {
    await expect(store.set('bad', 'x', 0)).rejects.toThrow(RangeError);
    await expect(store.setIfAbsent('bad', 'x', -5)).rejects.toThrow(RangeError);
    await expect(store.increment('bad', Number.NaN)).rejects.toThrow(RangeError);
    expect(await store.get('bad')).toBeNull();
  });

  it('gives an increment back with a negative step, and ignores it on a missing counter', async () => {
    await store.increment('refund', 10_000);
    await store.increment('refund', 10_000);
    expect((await store.increment('refund', 10_000, -1)).count).toBe(1);
    expect(await store.increment('never-counted', 10_000, -1)).toEqual({ count: 0, ttlMs: 0 });
    expect(await store.get('never-counted')).toBeNull();
  });

  it('keeps an index ordered by score and prunes members scored below the bound', async () => {
    await store.addToIndex('idx', 'late', 300, { ttlMs: 10_000, pruneBelow: 0 });
    await store.addToIndex('idx', 'early', 100, { ttlMs: 10_000, pruneBelow: 0 });
    await store.addToIndex('idx', 'middle', 200, { ttlMs: 10_000, pruneBelow: 0 });
    expect(await store.indexMembers('idx', 0)).toEqual([
      { member: 'early', score: 100 },
      { member: 'middle', score: 200 },
      { member: 'late', score: 300 },
    ]);
    expect((await store.indexMembers('idx', 150)).map((m) => m.member)).toEqual(['middle', 'late']);
    await store.addToIndex('idx', 'early', 400, { ttlMs: 10_000, pruneBelow: 250 });
    expect((await store.indexMembers('idx', 0)).map((m) => m.member)).toEqual(['late', 'early']);
  });

  it('extends an index lifetime but never shortens it', async () => {
    await store.addToIndex('long', 'a', 1, { ttlMs: 10_000, pruneBelow: 0 });
    await store.addToIndex('long', 'b', 2, { ttlMs: 50, pruneBelow: 0 });
    await sleep(80);
    expect(await store.indexMembers('long', 0)).toHaveLength(2);
    await store.addToIndex('short', 'a', 1, { ttlMs: 50, pruneBelow: 0 });
    await sleep(80);
    expect(await store.indexMembers('short', 0)).toEqual([]);
  });

  it('removes index members, and the index itself with its last member', async () => {
    await store.addToIndex('rm', 'a', 1, { ttlMs: 10_000, pruneBelow: 0 });
    await store.addToIndex('rm', 'b', 2, { ttlMs: 10_000, pruneBelow: 0 });
    await store.removeFromIndex('rm', 'a');
    expect(await store.indexMembers('rm', 0)).toEqual([{ member: 'b', score: 2 }]);
    await store.removeFromIndex('rm', 'b');
    await store.removeFromIndex('rm');
    expect(await store.ttlMs('rm')).toBeNull();
  });

  it('answers ping while open', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

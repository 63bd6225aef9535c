import { workerRedis } from '@foodshare/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyValueStore } from '../kv/key-value-store.ts';
import { MemoryKeyValueStore } from '../kv/memory-store.ts';
import { RedisKeyValueStore } from '../kv/redis-store.ts';
import { ENDED_SESSION_TTL_MS, EndedSessions } from './ended-sessions.ts';

describe.each([
  ['redis', () => new RedisKeyValueStore(workerRedis('ended-sessions')).connect()],
  ['memory', () => Promise.resolve(new MemoryKeyValueStore())],
] as const)('EndedSessions on %s', (_name, open) => {
  let store: KeyValueStore;
  afterEach(() => store.close());

  it('hands each ended session to exactly one of concurrent takers', async () => {
    store = await open();
    const ended = new EndedSessions(store);
    await ended.take();
    await ended.record(7);
    await ended.record(8);
    await ended.record(7);
    const takes = await Promise.all([ended.take(), ended.take(), ended.take()]);
    expect(
      takes
        .flat()
        .map(({ userId }) => userId)
        .sort(),
    ).toEqual([7, 7, 8]);
    expect(await ended.take()).toEqual([]);
  });
});

describe('EndedSessions', () => {
  it('says when each session ended, and reads an entry of the earlier form as ended now', async () => {
    let now = 1_800_000_000_000;
    const store = new MemoryKeyValueStore(() => now);
    const ended = new EndedSessions(store, () => now);
    await ended.record(7);
    now += 5_000;
    expect(await ended.take()).toEqual([{ userId: 7, endedAt: now - 5_000 }]);
    // Written by a REST service of the previous version during a rolling upgrade.
    await ended.record(8);
    const [entry] = await store.indexMembers('session:ended', now);
    await store.set(`session:ended:${entry?.member}`, '8', 60_000);
    expect(await ended.take()).toEqual([{ userId: 8, endedAt: now }]);
  });

  it('forgets an ended session nobody took within its lifetime', async () => {
    let now = 1_800_000_000_000;
    const store = new MemoryKeyValueStore(() => now);
    const ended = new EndedSessions(store, () => now);
    await ended.record(7);
    now += ENDED_SESSION_TTL_MS;
    expect(await ended.take()).toEqual([]);
  });
});

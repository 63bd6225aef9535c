import { startDisposableRedis, type DisposableRedis } from '@foodshare/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisKeyValueStore } from './redis-store.ts';

// A Redis of the test's own: SCRIPT FLUSH empties the script cache of the whole server.
describe('RedisKeyValueStore call order', () => {
  let redis: DisposableRedis;
  let store: RedisKeyValueStore;
  let admin: Redis;

  beforeAll(async () => {
    redis = await startDisposableRedis();
    store = await new RedisKeyValueStore({ url: redis.url }).connect();
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    await store.close();
    admin.disconnect();
    await redis.dispose();
  });

  // The token endpoint records an access token in its family's index and reads the tombstone
  // in one round trip (RefreshFamilyStore.recordIssue): the read must run after the script.
  it('runs a script before a read sent behind it, also after Redis forgot its scripts', async () => {
    const options = { ttlMs: 60_000, pruneBelow: 0 };
    await store.addToIndex('index', 'warm-up', 1, options);
    await admin.script('FLUSH');
    const [, members] = await Promise.all([
      store.addToIndex('index', 'new', 2, options),
      store.indexMembers('index', 0),
    ]);
    expect(members.map(({ member }) => member)).toEqual(['warm-up', 'new']);
  });
});

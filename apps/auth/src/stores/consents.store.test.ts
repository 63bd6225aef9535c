import { type KeyValueStore, MemoryKeyValueStore, RedisKeyValueStore } from '@foodshare/server-kit';
import { workerRedis } from '@foodshare/testing';
import { describe, expect, it, test } from '../test-support/fixtures.ts';
import { testLedger } from '../test-support/revocation-database.ts';
import { ClientGrantCutoffs, ConsentStore } from '@foodshare/server-kit/oauth-grants';

const implementations: [string, () => Promise<KeyValueStore>][] = [
  ['redis', () => new RedisKeyValueStore(workerRedis('consents')).connect()],
  ['memory', () => Promise.resolve(new MemoryKeyValueStore())],
];

describe.each(implementations)('remembered consent on %s', (_name, open) => {
  let kv: KeyValueStore;
  let consents: ConsentStore;
  let cutoffs: ClientGrantCutoffs;
  let clock: number;

  test.beforeEach(async ({ revocationOrm: orm }) => {
    kv = await open();
    clock = Date.now();
    consents = new ConsentStore(kv, undefined, () => clock);
    cutoffs = new ClientGrantCutoffs(testLedger(orm, kv), { ttlMs: 60_000, marginMs: 0 });
  });
  test.afterEach(async () => {
    await kv.close();
  });

  it('covers the same or fewer scopes, not more', async () => {
    await consents.remember(1, 'app', ['openid', 'profile']);
    expect(await consents.covers(1, 'app', ['openid', 'profile'])).toBe(true);
    expect(await consents.covers(1, 'app', ['openid'])).toBe(true);
    expect(await consents.covers(1, 'app', ['openid', 'profile', 'email'])).toBe(false);
  });

  it('is per user and per client', async () => {
    await consents.remember(1, 'app', ['openid']);
    expect(await consents.covers(2, 'app', ['openid'])).toBe(false);
    expect(await consents.covers(1, 'other-app', ['openid'])).toBe(false);
  });

  it('adds newly allowed scopes to those allowed earlier and renews the date', async () => {
    await consents.remember(1, 'app', ['openid', 'profile']);
    clock += 60_000;
    const consent = await consents.remember(1, 'app', ['openid', 'email']);
    expect(consent.scopes).toEqual(['openid', 'profile', 'email']);
    expect(consent.grantedAt).toBe(clock);
    expect(await consents.covers(1, 'app', ['openid', 'profile', 'email'])).toBe(true);
  });

  it('lists a user’s consents, most recent first, and nobody else’s', async () => {
    await consents.remember(1, 'first', ['openid']);
    clock += 1000;
    await consents.remember(1, 'second', ['openid', 'email']);
    await consents.remember(2, 'third', ['openid']);
    const listed = await consents.list(1);
    expect(listed.map((consent) => consent.clientId)).toEqual(['second', 'first']);
    expect(listed[0]).toEqual({
      clientId: 'second',
      scopes: ['openid', 'email'],
      grantedAt: clock,
    });
  });

  it('revokes: no longer covered, no longer listed, and says whether there was one', async () => {
    await consents.remember(1, 'app', ['openid']);
    expect(await consents.revoke(1, 'app')).toBe(true);
    expect(await consents.covers(1, 'app', ['openid'])).toBe(false);
    expect(await consents.list(1)).toEqual([]);
    expect(await consents.revoke(1, 'app')).toBe(false);
  });

  it('is void once the client’s grants were ended, and a later consent counts again', async () => {
    await consents.remember(1, 'app', ['openid', 'profile']);
    await consents.remember(1, 'other-app', ['openid']);
    clock += 1000;
    await cutoffs.endGrants('app', clock);
    expect(await consents.find(1, 'app')).toBeNull();
    expect(await consents.covers(1, 'app', ['openid'])).toBe(false);
    expect((await consents.list(1)).map((consent) => consent.clientId)).toEqual(['other-app']);

    clock += 1000;
    // Given anew, to the client as it is now: the scopes allowed before the cutoff are not added.
    const renewed = await consents.remember(1, 'app', ['openid']);
    expect(renewed.scopes).toEqual(['openid']);
    expect(await consents.covers(1, 'app', ['openid'])).toBe(true);
    expect(await consents.covers(1, 'app', ['openid', 'profile'])).toBe(false);
  });
});

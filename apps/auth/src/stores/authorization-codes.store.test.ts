import { type KeyValueStore, MemoryKeyValueStore, RedisKeyValueStore } from '@foodshare/server-kit';
import { workerRedis } from '@foodshare/testing';
import { countingKeyValueStore } from '../test-support/counting-key-value-store.ts';
import { describe, expect, it, test } from '../test-support/fixtures.ts';
import { testLedger } from '../test-support/revocation-database.ts';
import { AuthorizationCodeStore, ClientGrantCutoffs } from '@foodshare/server-kit/oauth-grants';

const implementations: [string, () => Promise<KeyValueStore>][] = [
  ['redis', () => new RedisKeyValueStore(workerRedis('codes')).connect()],
  ['memory', () => Promise.resolve(new MemoryKeyValueStore())],
];

describe.each(implementations)('AuthorizationCodeStore on %s', (_name, open) => {
  let kv: KeyValueStore;
  let codes: AuthorizationCodeStore;
  const grant = {
    clientId: 'client',
    userId: 7,
    redirectUri: 'https://client.example/cb',
    scopes: ['openid'],
    codeChallenge: null,
    nonce: null,
    authTime: 1,
  };
  const redemption = (familyId: string) => ({
    familyId,
    accessTokenJti: `${familyId}-at`,
    accessTokenExpiresAt: Date.now() + 1000,
  });

  test.beforeEach(async () => {
    kv = await open();
    codes = new AuthorizationCodeStore(kv, 600_000);
  });
  test.afterEach(() => kv.close());

  it('issues 256-bit codes and keeps only their hash as key', async () => {
    const code = await codes.issue(grant);
    expect(Buffer.from(code, 'base64url')).toHaveLength(32);
    expect(await kv.get(`oauth:code:${code}`)).toBeNull();
    expect(await codes.find(code, 'client')).toMatchObject({
      ...grant,
      issuedAt: expect.any(Number),
    });
  });

  it('has no code issued before its client’s grants were ended', async ({ revocationOrm: orm }) => {
    const code = await codes.issue(grant);
    const otherClients = await codes.issue({ ...grant, clientId: 'other-client' });
    await new ClientGrantCutoffs(testLedger(orm, kv), { ttlMs: 600_000, marginMs: 0 }).endGrants(
      'client',
      Date.now() + 1,
    );
    expect(await codes.find(code, 'client')).toBeNull();
    expect(await codes.find(otherClients, 'other-client')).not.toBeNull();
  });

  it('reads a code and its client’s cutoff in one round trip', async ({ revocationOrm: orm }) => {
    const code = await codes.issue(grant);
    const counting = countingKeyValueStore(kv);
    const counted = new AuthorizationCodeStore(counting.store, 600_000);
    expect(await counted.find(code, 'client')).not.toBeNull();
    await new ClientGrantCutoffs(testLedger(orm, kv), { ttlMs: 600_000, marginMs: 0 }).endGrants(
      'client',
      Date.now() + 1,
    );
    expect(await counted.find(code, 'client')).toBeNull();
    expect(counting.calls).toEqual(['getMany', 'getMany']);
  });

  it('returns a code issued to another client as it is, for the caller to refuse', async () => {
    const code = await codes.issue(grant);
    expect(await codes.find(code, 'other-client')).toMatchObject({ clientId: 'client' });
  });

  it('redeems a code once: of 20 concurrent redemptions exactly one wins', async () => {
    const code = await codes.issue(grant);
    const won = await Promise.all(
      Array.from({ length: 20 }, (_, i) => codes.redeem(code, redemption(`f${i}`))),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await codes.find(code, 'client')).toBeNull();
    // The marker names what the winner issued, for a reuse to revoke.
    const winner = won.indexOf(true);
    expect(await codes.findRedemption(code)).toMatchObject({ familyId: `f${winner}` });
  });

  it('counts a code as expired from its tenth minute on', async () => {
    const issuedAt = Date.now();
    expect(codes.isExpired({ ...grant, issuedAt }, issuedAt + 599_999)).toBe(false);
    expect(codes.isExpired({ ...grant, issuedAt }, issuedAt + 600_000)).toBe(true);
  });
});

import { hkdfSync, randomBytes } from 'node:crypto';
import { type KeyValueStore, MemoryKeyValueStore, RedisKeyValueStore } from '@foodshare/server-kit';
import { workerRedis } from '@foodshare/testing';
import { countingKeyValueStore } from '../test-support/counting-key-value-store.ts';
import { describe, expect, it, test } from '../test-support/fixtures.ts';
import { testLedger } from '../test-support/revocation-database.ts';
import {
  AccessTokenDenyList,
  ClientGrantCutoffs,
  type RefreshFamily,
  RefreshFamilyStore,
  type RevocationLedger,
  RefreshTokenCodec,
  ROTATION_LEASE_MS,
} from '@foodshare/server-kit/oauth-grants';

// The stores take the test's clock; Redis keeps its own for key lifetimes, so a test that waits
// for a key to expire runs on the memory store alone (below).
const implementations: [string, (clock: () => number) => Promise<KeyValueStore>][] = [
  ['redis', () => new RedisKeyValueStore(workerRedis('families')).connect()],
  ['memory', (clock) => Promise.resolve(new MemoryKeyValueStore(clock))],
];

describe.each(implementations)('RefreshFamilyStore on %s', (_name, open) => {
  let now: number;
  let kv: KeyValueStore;
  let ledger: RevocationLedger;
  let denyList: AccessTokenDenyList;
  let families: RefreshFamilyStore;
  let cutoffs: ClientGrantCutoffs;

  test.beforeEach(async ({ revocationOrm: orm }) => {
    now = 1_800_000_000_000;
    const clock = () => now;
    kv = await open(clock);
    // Each test restores only what it revoked itself.
    await orm.em.fork().execute('delete from oauth_revocations');
    ledger = testLedger(orm, kv, clock);
    denyList = new AccessTokenDenyList(kv, ledger);
    families = new RefreshFamilyStore({
      store: kv,
      denyList,
      ledger,
      refreshTtlMs: 60_000,
      now: clock,
    });
    cutoffs = new ClientGrantCutoffs(ledger, { ttlMs: 120_000, marginMs: 0, now: clock });
  });
  test.afterEach(() => kv.close());

  const newFamily = (id = 'f1', userId = 7, clientId = 'client'): Promise<RefreshFamily> =>
    families.create({
      id,
      userId,
      clientId,
      scopes: ['openid'],
      authTime: 1,
      databaseCreatedAt: 1,
    });

  /** A won rotation's attempt, or the test fails. */
  async function win(id: string, jti: string): Promise<string> {
    const start = await families.startRotation(id, jti, now);
    if (start.use !== 'won') throw new Error(`expected to win the rotation, got ${start.use}`);
    return start.attempt;
  }

  it('keeps one live refresh token per generation', async () => {
    const family = await newFamily();
    const first = await families.issueRefreshToken(family);
    expect(await families.isRefreshTokenLive(family.id, first.jti)).toBe(true);
    const attempt = await win(family.id, first.jti);
    // Leased, not yet used up: a rotation that fails from here on leaves it usable.
    expect(await families.isRefreshTokenLive(family.id, first.jti)).toBe(true);
    const second = await families.issueRefreshToken(family);
    expect(await families.completeRotation(family.id, first.jti, attempt)).toBe(true);
    expect(await families.isRefreshTokenLive(family.id, first.jti)).toBe(false);
    expect(await families.isRefreshTokenLive(family.id, second.jti)).toBe(true);
  });

  it('lets exactly one of 20 concurrent uses win, and calls the others concurrent', async () => {
    const family = await newFamily();
    const { jti } = await families.issueRefreshToken(family);
    const starts = await Promise.all(
      Array.from({ length: 20 }, () => families.startRotation(family.id, jti, now)),
    );
    expect(starts.filter((start) => start.use === 'won')).toHaveLength(1);
    expect(starts.filter((start) => start.use === 'concurrent')).toHaveLength(19);
  });

  it('calls a use that started after the rotation completed a replay', async () => {
    const family = await newFamily();
    const { jti } = await families.issueRefreshToken(family);
    const startedBefore = now;
    const attempt = await win(family.id, jti);
    now += 5;
    await families.completeRotation(family.id, jti, attempt);
    expect(await families.startRotation(family.id, jti, startedBefore)).toEqual({
      use: 'concurrent',
    });
    now += 5;
    expect(await families.startRotation(family.id, jti, now)).toEqual({ use: 'replayed' });
  });

  it('leaves the token usable when a rotation is abandoned, and the next use wins', async () => {
    const family = await newFamily();
    const { jti } = await families.issueRefreshToken(family);
    const attempt = await win(family.id, jti);
    expect(await families.startRotation(family.id, jti, now)).toEqual({ use: 'concurrent' });
    await families.abandonRotation(family.id, jti, attempt);
    const retry = await win(family.id, jti);
    expect(await families.completeRotation(family.id, jti, retry)).toBe(true);
    now += 5;
    expect(await families.startRotation(family.id, jti, now)).toEqual({ use: 'replayed' });
  });

  it('does not complete a rotation whose lease another attempt holds', async () => {
    const family = await newFamily();
    const { jti } = await families.issueRefreshToken(family);
    await win(family.id, jti);
    expect(await families.completeRotation(family.id, jti, 'another-attempt')).toBe(false);
    expect(await families.isRefreshTokenLive(family.id, jti)).toBe(true);
  });

  it('revokes a family: gone, its unexpired access tokens denied, its grant index emptied', async () => {
    const family = await newFamily();
    await families.recordAccessToken(family.id, 'live-at', now + 30_000);
    await families.recordAccessToken(family.id, 'old-at', now + 10);
    now += 20;
    await families.revoke(family.id);
    expect(await families.find(family.id, 'client')).toBeNull();
    expect(await denyList.isDenied('live-at')).toBe(true);
    expect(await denyList.isDenied('old-at')).toBe(false);
    expect(await families.familiesOf(7, 'client')).toEqual([]);
  });

  it('denies an access token recorded after the family was revoked', async () => {
    await families.revoke('f-race');
    const family = await newFamily('f-race');
    expect(await families.find(family.id, 'client')).toBeNull();
    expect(await families.recordAccessToken(family.id, 'late-at', now + 30_000)).toBe(false);
    expect(await denyList.isDenied('late-at')).toBe(true);
  });

  it('has no family that began before its client’s grants were ended', async () => {
    const old = await newFamily('old', 7, 'client');
    const other = await newFamily('other', 7, 'other-client');
    now += 10;
    await cutoffs.endGrants('client', now);
    expect(await families.find(old.id, 'client')).toBeNull();
    expect(await families.find(other.id, 'other-client')).toEqual(other);
    now += 10;
    const later = await newFamily('later', 7, 'client');
    expect(await families.find(later.id, 'client')).toEqual(later);
  });

  it('reads a family, its tombstone and its client’s cutoff in one round trip', async () => {
    const family = await newFamily();
    const counting = countingKeyValueStore(kv);
    const counted = new RefreshFamilyStore({
      store: counting.store,
      denyList,
      ledger,
      refreshTtlMs: 60_000,
      now: () => now,
    });
    expect(await counted.find(family.id, 'client')).toEqual(family);
    now += 10;
    await cutoffs.endGrants('client', now);
    expect(await counted.find(family.id, 'client')).toBeNull();
    expect(counting.calls).toEqual(['getMany', 'getMany']);
  });

  it('returns a family of another client as it is, for the caller to refuse', async () => {
    const family = await newFamily();
    expect(await families.find(family.id, 'other-client')).toEqual(family);
  });

  it('lists the live families of a user with a client', async () => {
    await newFamily('a', 7, 'client');
    await newFamily('b', 7, 'client');
    await newFamily('c', 7, 'other');
    await newFamily('d', 8, 'client');
    expect((await families.familiesOf(7, 'client')).sort()).toEqual(['a', 'b']);
    now += 60_001;
    expect(await families.familiesOf(7, 'client')).toEqual([]);
  });

  it('lists every grant of a user by client, with scopes, start and last use', async () => {
    const first = await newFamily('a', 7, 'client');
    now += 1_000;
    await families.issueRefreshToken(first);
    now += 1_000;
    await newFamily('c', 7, 'other');
    await newFamily('d', 8, 'client');
    expect(await families.grantsOf(7)).toEqual([
      { clientId: 'other', scopes: ['openid'], grantedAt: now, lastUsedAt: now },
      { clientId: 'client', scopes: ['openid'], grantedAt: now - 2_000, lastUsedAt: now - 1_000 },
    ]);
  });

  it('leaves out of the grants revoked families, cut-off clients and expired ones', async () => {
    await newFamily('a', 7, 'client');
    await newFamily('b', 7, 'other');
    await newFamily('c', 7, 'ended');
    await families.revoke('a');
    await cutoffs.endGrants('ended', now);
    expect((await families.grantsOf(7)).map((grant) => grant.clientId)).toEqual(['other']);
    now += 60_001;
    expect(await families.grantsOf(7)).toEqual([]);
  });

  it('tells a denied access token from one whose client’s grants ended, in one round trip', async () => {
    const counting = countingKeyValueStore(kv);
    await ledger.restoreIfLost(null);
    const counted = new AccessTokenDenyList(counting.store, ledger);
    const iat = Math.floor(now / 1000);
    const token = (jti: string, clientId = 'client') => ({ jti, clientId, iat });
    await denyList.deny('denied', now + 60_000);
    expect(await counted.stateOf(token('live'))).toBe('valid');
    expect(await counted.stateOf(token('denied'))).toBe('revoked');
    await cutoffs.endGrants('client', now);
    expect(await counted.stateOf(token('live'))).toBe('client_grants_ended');
    expect(await counted.stateOf(token('live', 'other-client'))).toBe('valid');
    expect(counting.calls).toEqual(['getMany', 'getMany', 'getMany', 'getMany']);
  });
});

describe('AccessTokenDenyList', () => {
  it('denies an access token only for its remaining lifetime', async ({ revocationOrm: orm }) => {
    let now = 1_800_000_000_000;
    const clock = () => now;
    const kv = new MemoryKeyValueStore(clock);
    const denyList = new AccessTokenDenyList(kv, testLedger(orm, kv, clock));
    try {
      await denyList.deny('jti', now + 1000);
      expect(await denyList.isDenied('jti')).toBe(true);
      now += 1001;
      expect(await denyList.isDenied('jti')).toBe(false);
      await denyList.deny('expired', now - 1);
      expect(await denyList.isDenied('expired')).toBe(false);
    } finally {
      await kv.close();
    }
  });

  it('refuses a denied token, a revoked family’s and an ended client’s again after the store lost everything', async ({
    revocationOrm: orm,
  }) => {
    await orm.em.fork().execute('delete from oauth_revocations');
    const now = Date.now();
    const iat = Math.floor(now / 1000) - 60;
    const before = new MemoryKeyValueStore();
    const ledger = testLedger(orm, before);
    const families = new RefreshFamilyStore({
      store: before,
      denyList: new AccessTokenDenyList(before, ledger),
      ledger,
      refreshTtlMs: 60_000,
    });
    await new AccessTokenDenyList(before, ledger).deny('denied', now + 60_000);
    await families.create({
      id: 'f',
      userId: 7,
      clientId: 'c',
      scopes: ['openid'],
      authTime: 1,
      databaseCreatedAt: now,
    });
    await families.recordAccessToken('f', 'family-at', now + 60_000);
    await families.revoke('f');
    await new ClientGrantCutoffs(ledger, { ttlMs: 60_000, marginMs: 0 }).endGrants('ended', now);
    await before.close();

    // A store that restarted empty, as a Redis without persistence does.
    const after = new MemoryKeyValueStore();
    const denyList = new AccessTokenDenyList(after, testLedger(orm, after));
    try {
      const stateOf = (jti: string, clientId = 'c') => denyList.stateOf({ jti, clientId, iat });
      expect(await stateOf('denied')).toBe('revoked');
      expect(await stateOf('family-at')).toBe('revoked');
      expect(await stateOf('other', 'ended')).toBe('client_grants_ended');
      expect(await stateOf('other')).toBe('valid');
      expect(await after.get('oauth:family:f:revoked')).toBe('1');
    } finally {
      await after.close();
    }
  });
});

describe('RefreshFamilyStore rotation lease', () => {
  it('runs out, so that a rotation whose server died leaves the token usable again', async ({
    revocationOrm: orm,
  }) => {
    let now = 1_800_000_000_000;
    const clock = () => now;
    const kv = new MemoryKeyValueStore(clock);
    const ledger = testLedger(orm, kv, clock);
    const families = new RefreshFamilyStore({
      store: kv,
      denyList: new AccessTokenDenyList(kv, ledger),
      ledger,
      refreshTtlMs: 60_000,
      now: clock,
    });
    try {
      const family = await families.create({
        id: 'f1',
        userId: 7,
        clientId: 'client',
        scopes: ['openid'],
        authTime: 1,
        databaseCreatedAt: now,
      });
      const { jti } = await families.issueRefreshToken(family);
      expect((await families.startRotation(family.id, jti, now)).use).toBe('won');
      now += ROTATION_LEASE_MS - 1;
      expect((await families.startRotation(family.id, jti, now)).use).toBe('concurrent');
      now += 1;
      expect((await families.startRotation(family.id, jti, now)).use).toBe('won');
    } finally {
      await kv.close();
    }
  });
});

describe('RefreshTokenCodec', () => {
  const kek = randomBytes(32);
  const claims = {
    familyId: 'family',
    jti: 'generation',
    clientId: 'demo-public',
    expiresAt: Math.floor(Date.now() / 1000) + 600,
  };

  it('seals a compact JWE (dir, A256GCM) that only it opens', async () => {
    const codec = new RefreshTokenCodec(kek);
    const token = await codec.seal(claims);
    expect(token.split('.')).toHaveLength(5);
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as object;
    expect(header).toEqual({ alg: 'dir', enc: 'A256GCM' });
    // Opaque: nothing of the claims is readable.
    expect(token).not.toContain(Buffer.from('demo-public').toString('base64url'));
    expect(await codec.open(token)).toEqual(claims);
  });

  it('does not open a token sealed under another key', async () => {
    const token = await new RefreshTokenCodec(randomBytes(32)).seal(claims);
    expect(await new RefreshTokenCodec(kek).open(token)).toBeNull();
  });

  it('does not open a tampered token', async () => {
    const codec = new RefreshTokenCodec(kek);
    const parts = (await codec.seal(claims)).split('.');
    const ciphertext = Buffer.from(parts[3]!, 'base64url');
    ciphertext[0] = ciphertext[0]! ^ 1;
    parts[3] = ciphertext.toString('base64url');
    expect(await codec.open(parts.join('.'))).toBeNull();
  });

  it('does not open an expired token', async () => {
    let now = Date.now();
    const codec = new RefreshTokenCodec(kek, () => now);
    const token = await codec.seal({ ...claims, expiresAt: Math.floor(now / 1000) + 10 });
    now += 11_000;
    expect(await codec.open(token)).toBeNull();
  });

  it('derives its key from the key-encryption key rather than using it directly', async () => {
    const { EncryptJWT } = await import('jose');
    const direct = await new EncryptJWT({ fid: 'f', cid: 'c' })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setJti('j')
      .setExpirationTime(claims.expiresAt)
      .encrypt(kek);
    expect(await new RefreshTokenCodec(kek).open(direct)).toBeNull();
  });

  // Tokens in flight when the codec changed were sealed by jose; jose-based readers may remain.
  it('opens what jose seals under its key, and jose opens what it seals', async () => {
    const { EncryptJWT, jwtDecrypt } = await import('jose');
    const key = new Uint8Array(
      hkdfSync('sha256', kek, new Uint8Array(0), 'foodshare oauth refresh-token A256GCM v1', 32),
    );
    const byJose = await new EncryptJWT({ fid: claims.familyId, cid: claims.clientId })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setJti(claims.jti)
      .setIssuedAt()
      .setExpirationTime(claims.expiresAt)
      .encrypt(key);
    const codec = new RefreshTokenCodec(kek);
    expect(await codec.open(byJose)).toEqual(claims);
    const { payload, protectedHeader } = await jwtDecrypt(await codec.seal(claims), key);
    expect(protectedHeader).toEqual({ alg: 'dir', enc: 'A256GCM' });
    expect(payload).toMatchObject({ fid: 'family', cid: 'demo-public', jti: 'generation' });
    expect(payload.exp).toBe(claims.expiresAt);
  });

  it('does not open a token with a shortened tag, a key part, or another header', async () => {
    const codec = new RefreshTokenCodec(kek);
    const parts = (await codec.seal(claims)).split('.');
    const shortTag = [...parts];
    shortTag[4] = Buffer.from(parts[4]!, 'base64url').subarray(0, 12).toString('base64url');
    expect(await codec.open(shortTag.join('.'))).toBeNull();
    const withKey = [...parts];
    withKey[1] = 'AAAA';
    expect(await codec.open(withKey.join('.'))).toBeNull();
    const otherHeader = [...parts];
    otherHeader[0] = Buffer.from('{"alg":"dir","enc":"A256GCM","zip":"DEF"}').toString('base64url');
    expect(await codec.open(otherHeader.join('.'))).toBeNull();
    expect(await codec.open('not.a.token')).toBeNull();
    expect(await codec.open(parts.join('.'))).toEqual(claims);
  });
});

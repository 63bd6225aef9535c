import { RegionMembershipEntity } from '../entities/region-membership.entity.ts';
import { UserEntity } from '../entities/user.entity.ts';
import { RegionType } from '../enums.ts';
import type { EntityManager } from '../db/orm.ts';
import { describe, expect, it, test } from '../test-support/fixtures.ts';
import { addAdmin, addMembership, createRegion } from '../accounts/regions.service.ts';
import { liveOAuthRevocations, recordOAuthRevocations } from './oauth-token-revocation.ts';

// docs/domain.md §5.4: joining a region or a change of region admins revokes the user's OAuth
// refresh tokens. The authorization server revokes families created before
// users.tokens_valid_after.
let sequence = 0;

async function newUserId(em: EntityManager): Promise<number> {
  sequence += 1;
  const user = em.create(UserEntity, {
    firstName: `Token${sequence}`,
    lastName: 'Holder',
    email: `token-holder-${sequence}@example.org`,
    passwordHash: '$argon2id$not-a-real-hash',
  });
  await em.flush();
  return user.id;
}

/** Milliseconds since the epoch with microsecond fractions, or null. */
async function tokensValidAfter(em: EntityManager, userId: number): Promise<number | null> {
  const rows = await em
    .getConnection()
    .execute<{ ms: number | null }[]>(
      'select (extract(epoch from tokens_valid_after) * 1000)::float8 as ms from users where id = ?',
      [userId],
    );
  return rows[0]?.ms ?? null;
}

async function newCity(em: EntityManager): Promise<number> {
  return (await createRegion(em, { name: `City ${sequence}`, type: RegionType.City })).id;
}

describe('users.tokens_valid_after', () => {
  it('is unset for a user whose regions never changed', async ({ em }) => {
    expect(await tokensValidAfter(em, await newUserId(em))).toBeNull();
  });

  it('moves forward when the user joins a region', async ({ em }) => {
    const userId = await newUserId(em);
    const before = Date.now();
    await addMembership(em, userId, await newCity(em));
    const validAfter = await tokensValidAfter(em, userId);
    expect(validAfter).toBeGreaterThanOrEqual(before - 5);
  });

  it('moves forward when a membership is deactivated, but not on an unrelated update', async ({
    em,
  }) => {
    const userId = await newUserId(em);
    const regionId = await newCity(em);
    await addMembership(em, userId, regionId);
    const joined = await tokensValidAfter(em, userId);
    await em.getConnection().execute(
      `update region_memberships set joined_at = joined_at - interval '1 day'
        where user_id = ? and region_id = ?`,
      [userId, regionId],
    );
    expect(await tokensValidAfter(em, userId)).toEqual(joined);
    const membership = await em.findOneOrFail(RegionMembershipEntity, {
      user: userId,
      region: regionId,
    });
    membership.active = false;
    await em.flush();
    expect((await tokensValidAfter(em, userId))!).toBeGreaterThan(joined!);
  });

  it('moves forward when the user leaves a region', async ({ em }) => {
    const userId = await newUserId(em);
    const regionId = await newCity(em);
    await addMembership(em, userId, regionId);
    const joined = await tokensValidAfter(em, userId);
    await em
      .getConnection()
      .execute('delete from region_memberships where user_id = ? and region_id = ?', [
        userId,
        regionId,
      ]);
    expect((await tokensValidAfter(em, userId))!).toBeGreaterThan(joined!);
  });

  it('moves forward when the user becomes or stops being an admin of a unit', async ({ em }) => {
    const userId = await newUserId(em);
    const regionId = await newCity(em);
    await addMembership(em, userId, regionId);
    const member = await tokensValidAfter(em, userId);
    await addAdmin(em, userId, regionId);
    const admin = await tokensValidAfter(em, userId);
    expect(admin!).toBeGreaterThan(member!);
    await em
      .getConnection()
      .execute('delete from region_admins where user_id = ? and region_id = ?', [userId, regionId]);
    expect((await tokensValidAfter(em, userId))!).toBeGreaterThan(admin!);
  });

  it("leaves other users' tokens alone", async ({ em }) => {
    const userId = await newUserId(em);
    const otherId = await newUserId(em);
    await addMembership(em, userId, await newCity(em));
    expect(await tokensValidAfter(em, otherId)).toBeNull();
  });
});

describe('oauth_revocations', () => {
  test.beforeEach(({ em }) => em.getConnection().execute('delete from oauth_revocations'));

  it('keeps revocations until they expire, a key written again with the newer value', async ({
    em,
  }) => {
    const now = Date.now();
    await recordOAuthRevocations(em, [
      { key: 'oauth:deny:a', value: '1', expiresAt: now + 60_000 },
      { key: 'oauth:client:c:grants-void-before', value: '100', expiresAt: now + 60_000 },
    ]);
    await recordOAuthRevocations(em, [
      { key: 'oauth:client:c:grants-void-before', value: '200', expiresAt: now + 30_000 },
      { key: 'oauth:deny:expired', value: '1', expiresAt: now - 1 },
    ]);
    const live = await liveOAuthRevocations(em);
    expect(live.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'oauth:client:c:grants-void-before', value: '200', expiresAt: now + 60_000 },
      { key: 'oauth:deny:a', value: '1', expiresAt: now + 60_000 },
    ]);
  });

  it('prunes expired rows as later ones are written', async ({ em }) => {
    const now = Date.now();
    await recordOAuthRevocations(em, [{ key: 'oauth:deny:old', value: '1', expiresAt: now - 1 }]);
    await recordOAuthRevocations(em, [
      { key: 'oauth:deny:new', value: '1', expiresAt: now + 60_000 },
    ]);
    const rows = await em
      .getConnection()
      .execute<{ key: string }[]>('select key from oauth_revocations order by key');
    expect(rows.map((row) => row.key)).toEqual(['oauth:deny:new']);
  });
});

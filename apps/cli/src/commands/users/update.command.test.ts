import {
  createRegion,
  createUser,
  RegionMembershipEntity,
  RegionType,
  UserEntity,
  type RegionEntity,
  type UpdateUserInput,
} from '@foodshare/domain';
import { describe, expect, it, test } from '../../test-support/fixtures.ts';
import { updateUserCommand } from './update.command.ts';

let city: RegionEntity;
let other: RegionEntity;
let state: RegionEntity;

test.beforeAll(async ({ db }) => {
  state = await createRegion(db.em(), { name: 'Hessen', type: RegionType.FederalState });
  city = await createRegion(db.em(), { name: 'Kassel', type: RegionType.City, parentId: state.id });
  other = await createRegion(db.em(), { name: 'Fulda', type: RegionType.City, parentId: state.id });
  for (const email of ['update@example.org', 'taken@example.org']) {
    await createUser(db.em(), {
      email,
      firstName: 'Udo',
      lastName: 'Update',
      password: 'long enough',
      homeRegionId: city.id,
    });
  }
});

describe('users update', () => {
  it('changes names and email address, and moves the home region keeping the old membership', async ({
    db,
  }) => {
    const updated = await updateUserCommand(
      db.em(),
      { email: 'update@example.org' },
      { firstName: ' Ute ', lastName: 'Neu', email: 'Ute@Example.org', homeRegionId: other.id },
    );
    expect(updated).toMatchObject({
      firstName: 'Ute',
      lastName: 'Neu',
      email: 'ute@example.org',
      homeRegionId: other.id,
    });
    const memberships = await db
      .em()
      .find(RegionMembershipEntity, { user: updated.id }, { orderBy: { region: 'asc' } });
    expect(memberships.map((membership) => membership.region.id)).toEqual([city.id, other.id]);
    // The same address again is no conflict with itself.
    await expect(
      updateUserCommand(db.em(), { id: updated.id }, { email: 'ute@example.org' }),
    ).resolves.toMatchObject({ email: 'ute@example.org' });
  });

  it.for<[UpdateUserInput, string]>([
    [{ email: 'taken@example.org' }, 'EMAIL_TAKEN'],
    [{ email: 'not an address' }, 'INVALID_INPUT'],
    [{ firstName: ' ' }, 'INVALID_INPUT'],
    [{ homeRegionId: 424_242 }, 'REGION_NOT_FOUND'],
    [{ homeRegionId: -1 }, 'REGION_NOT_FOUND'],
  ])('refuses %o with %s and changes nothing', async ([change, code], { db }) => {
    await expect(
      updateUserCommand(db.em(), { email: 'ute@example.org' }, { lastName: 'Changed', ...change }),
    ).rejects.toMatchObject({ code });
    const stored = await db.em().findOneOrFail(UserEntity, { email: 'ute@example.org' });
    expect(stored.lastName).toBe('Neu');
  });

  it('refuses a home region without members', async ({ db }) => {
    await expect(
      updateUserCommand(db.em(), { email: 'taken@example.org' }, { homeRegionId: state.id }),
    ).rejects.toMatchObject({ code: 'REGION_TAKES_NO_MEMBERS' });
  });

  it('refuses an unknown user', async ({ db }) => {
    await expect(
      updateUserCommand(db.em(), { id: 424_242 }, { firstName: 'Nobody' }),
    ).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });
});

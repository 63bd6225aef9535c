import {
  createRegion,
  createUser,
  RegionAdminEntity,
  RegionMembershipEntity,
  RegionType,
  type RegionEntity,
  type UserEntity,
} from '@foodshare/domain';
import { describe, expect, it, test } from '../test-support/fixtures.ts';
import { addAdminCommand } from './admins.command.ts';

let country: RegionEntity;
let group: RegionEntity;
let user: UserEntity;

test.beforeAll(async ({ db }) => {
  country = await createRegion(db.em(), { name: 'Österreich', type: RegionType.Country });
  group = await createRegion(db.em(), {
    name: 'IT support',
    type: RegionType.WorkingGroup,
    parentId: country.id,
  });
  user = await createUser(db.em(), {
    email: 'admin@example.org',
    firstName: 'Ada',
    lastName: 'Admin',
    password: 'long enough',
  });
});

describe('admins add', () => {
  it('makes the user an admin and a member of a working group, once', async ({ db }) => {
    const result = await addAdminCommand(db.em(), {
      email: 'admin@example.org',
      regionId: group.id,
    });
    expect(result).toEqual({
      userId: user.id,
      email: 'admin@example.org',
      regionId: group.id,
      admin: 'added',
      membership: 'added',
    });
    const again = await addAdminCommand(db.em(), {
      email: 'admin@example.org',
      regionId: group.id,
    });
    expect(again).toMatchObject({ admin: 'unchanged', membership: 'unchanged' });
    expect(await db.em().count(RegionAdminEntity, { region: group.id, user: user.id })).toBe(1);
    expect(await db.em().count(RegionMembershipEntity, { region: group.id, user: user.id })).toBe(
      1,
    );
  });

  it('makes an ambassador of a country without making anyone a member of it', async ({ db }) => {
    const result = await addAdminCommand(db.em(), {
      email: 'admin@example.org',
      regionId: country.id,
    });
    expect(result).toMatchObject({ admin: 'added', membership: null });
    expect(await db.em().count(RegionMembershipEntity, { region: country.id })).toBe(0);
  });

  it('refuses an unknown region or user', async ({ db }) => {
    await expect(
      addAdminCommand(db.em(), { email: 'admin@example.org', regionId: 777_777 }),
    ).rejects.toMatchObject({ code: 'REGION_NOT_FOUND' });
    await expect(
      addAdminCommand(db.em(), { email: 'nobody@example.org', regionId: group.id }),
    ).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });
});

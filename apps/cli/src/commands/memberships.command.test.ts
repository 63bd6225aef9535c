import {
  addAdmin,
  createRegion,
  createUser,
  RegionAdminEntity,
  RegionMembershipEntity,
  RegionType,
  type RegionEntity,
} from '@foodshare/domain';
import { describe, expect, it, test } from '../test-support/fixtures.ts';
import {
  addMembershipCommand,
  listMembershipsCommand,
  removeMembershipCommand,
} from './memberships.command.ts';

let state: RegionEntity;
let city: RegionEntity;

test.beforeAll(async ({ db }) => {
  state = await createRegion(db.em(), { name: 'Bayern', type: RegionType.FederalState });
  city = await createRegion(db.em(), {
    name: 'Bamberg',
    type: RegionType.City,
    parentId: state.id,
  });
  await createUser(db.em(), {
    email: 'member@example.org',
    firstName: 'Mia',
    lastName: 'Member',
    password: 'long enough',
  });
});

describe('memberships add', () => {
  it('adds a membership once; a second run changes nothing', async ({ db }) => {
    const first = await addMembershipCommand(db.em(), {
      email: 'Member@example.org',
      regionId: city.id,
    });
    expect(first).toMatchObject({
      email: 'member@example.org',
      regionId: city.id,
      outcome: 'added',
    });
    const again = await addMembershipCommand(db.em(), {
      email: 'member@example.org',
      regionId: city.id,
    });
    expect(again.outcome).toBe('unchanged');
    expect(await db.em().count(RegionMembershipEntity, { region: city.id })).toBe(1);
  });

  it('reactivates an inactive membership', async ({ db }) => {
    await db.em().nativeUpdate(RegionMembershipEntity, { region: city.id }, { active: false });
    const result = await addMembershipCommand(db.em(), {
      email: 'member@example.org',
      regionId: city.id,
    });
    expect(result.outcome).toBe('reactivated');
    const membership = await db.em().findOneOrFail(RegionMembershipEntity, { region: city.id });
    expect(membership.active).toBe(true);
  });

  it('refuses a region without direct members, an unknown region and an unknown user', async ({
    db,
  }) => {
    await expect(
      addMembershipCommand(db.em(), { email: 'member@example.org', regionId: state.id }),
    ).rejects.toMatchObject({ code: 'REGION_TAKES_NO_MEMBERS' });
    await expect(
      addMembershipCommand(db.em(), { email: 'member@example.org', regionId: 424_242 }),
    ).rejects.toMatchObject({ code: 'REGION_NOT_FOUND' });
    await expect(
      addMembershipCommand(db.em(), { email: 'nobody@example.org', regionId: city.id }),
    ).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });
});

describe('memberships list', () => {
  it("lists a region's members and a user's regions", async ({ db }) => {
    const group = await createRegion(db.em(), {
      name: 'AG Bamberg',
      type: RegionType.WorkingGroup,
    });
    await addMembershipCommand(db.em(), { email: 'member@example.org', regionId: group.id });
    const ofRegion = await listMembershipsCommand(db.em(), {
      limit: 100,
      offset: 0,
      regionId: city.id,
    });
    expect(ofRegion).toEqual([
      {
        userId: expect.any(Number),
        email: 'member@example.org',
        regionId: city.id,
        active: true,
        joinedAt: expect.any(String),
      },
    ]);
    const ofUser = await listMembershipsCommand(db.em(), {
      limit: 100,
      offset: 0,
      user: { email: 'member@example.org' },
    });
    expect(ofUser.map((item) => item.regionId)).toEqual([city.id, group.id]);
    const page = await listMembershipsCommand(db.em(), {
      limit: 1,
      offset: 1,
      user: { email: 'member@example.org' },
    });
    expect(page.map((item) => item.regionId)).toEqual([group.id]);
  });

  it('needs a region or a user, and refuses unknown ones', async ({ db }) => {
    await expect(listMembershipsCommand(db.em(), { limit: 100, offset: 0 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(
      listMembershipsCommand(db.em(), { limit: 100, offset: 0, regionId: 424_242 }),
    ).rejects.toMatchObject({ code: 'REGION_NOT_FOUND' });
    await expect(
      listMembershipsCommand(db.em(), { limit: 100, offset: 0, user: { id: 424_242 } }),
    ).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });
});

describe('memberships remove', () => {
  it('ends the membership and the admin role with it; a second run changes nothing', async ({
    db,
  }) => {
    const town = await createRegion(db.em(), {
      name: 'Gaustadt',
      type: RegionType.PartOfTown,
      parentId: city.id,
    });
    const user = await createUser(db.em(), {
      email: 'leaver@example.org',
      firstName: 'Lea',
      lastName: 'Leaver',
      password: 'long enough',
    });
    await addAdmin(db.em(), user.id, town.id);
    await addAdmin(db.em(), user.id, state.id);
    const first = await removeMembershipCommand(db.em(), {
      email: 'leaver@example.org',
      regionId: town.id,
    });
    expect(first).toMatchObject({ membership: 'removed', adminRemoved: true });
    expect(await db.em().count(RegionMembershipEntity, { region: town.id })).toBe(0);
    expect(await db.em().count(RegionAdminEntity, { region: town.id })).toBe(0);
    const again = await removeMembershipCommand(db.em(), {
      email: 'leaver@example.org',
      regionId: town.id,
    });
    expect(again).toMatchObject({ membership: 'unchanged', adminRemoved: false });
    // A federal state has no members: its ambassador stays one.
    const above = await removeMembershipCommand(db.em(), {
      email: 'leaver@example.org',
      regionId: state.id,
    });
    expect(above).toMatchObject({ membership: 'unchanged', adminRemoved: false });
    expect(await db.em().count(RegionAdminEntity, { region: state.id, user: user.id })).toBe(1);
  });

  it('refuses the home region and leaves it as it was', async ({ db }) => {
    await createUser(db.em(), {
      email: 'home@example.org',
      firstName: 'Hanna',
      lastName: 'Home',
      password: 'long enough',
      homeRegionId: city.id,
    });
    await expect(
      removeMembershipCommand(db.em(), { email: 'home@example.org', regionId: city.id }),
    ).rejects.toMatchObject({ code: 'REGION_IS_HOME_REGION' });
    const rows = await listMembershipsCommand(db.em(), {
      limit: 100,
      offset: 0,
      user: { email: 'home@example.org' },
    });
    expect(rows.map((item) => item.regionId)).toEqual([city.id]);
  });
});

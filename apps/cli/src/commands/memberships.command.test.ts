import {
  createRegion,
  createUser,
  RegionMembershipEntity,
  RegionType,
  type RegionEntity,
} from '@foodshare/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestOrm } from '../test-support/test-orm.ts';
import { addMembershipCommand } from './memberships.command.ts';

const db = useTestOrm();
let state: RegionEntity;
let city: RegionEntity;

beforeAll(async () => {
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
  it('adds a membership once; a second run changes nothing', async () => {
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

  it('reactivates an inactive membership', async () => {
    await db.em().nativeUpdate(RegionMembershipEntity, { region: city.id }, { active: false });
    const result = await addMembershipCommand(db.em(), {
      email: 'member@example.org',
      regionId: city.id,
    });
    expect(result.outcome).toBe('reactivated');
    const membership = await db.em().findOneOrFail(RegionMembershipEntity, { region: city.id });
    expect(membership.active).toBe(true);
  });

  it('refuses a region without direct members, an unknown region and an unknown user', async () => {
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

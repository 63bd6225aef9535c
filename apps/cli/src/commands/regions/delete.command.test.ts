import {
  addMembership,
  createRegion,
  createUser,
  RegionEntity,
  RegionOptionsEntity,
  RegionType,
  type RegionEntity as Region,
} from '@foodshare/domain';
import { regionTree } from '../../test-support/region-tree.ts';
import { describe, expect, it, test } from '../../test-support/fixtures.ts';
import { deleteRegionCommand } from './delete.command.ts';
import { showRegionCommand } from './show.command.ts';

let city: Region;

test.beforeAll(async ({ db }) => {
  ({ city } = await regionTree(db));
});

describe('regions delete', () => {
  it('refuses a region with sub-regions, members or admins and leaves them all', async ({ db }) => {
    await expect(deleteRegionCommand(db.em(), city.id)).rejects.toMatchObject({
      code: 'REGION_IN_USE',
      message: expect.stringMatching(
        /1 in region_admins\.region_id, 1 in region_memberships\.region_id, 1 in regions\.parent_id/,
      ),
    });
    expect(await showRegionCommand(db.em(), city.id)).toMatchObject({ members: 1, children: 1 });
  });

  it('deletes a region nothing depends on, with its own settings row', async ({ db }) => {
    const empty = await createRegion(db.em(), { name: 'Empty', type: RegionType.City });
    const em = db.em();
    em.create(RegionOptionsEntity, { region: empty.id });
    await em.flush();
    expect(await deleteRegionCommand(db.em(), empty.id)).toEqual({ id: empty.id, name: 'Empty' });
    expect(await db.em().count(RegionEntity, { id: empty.id })).toBe(0);
    expect(await db.em().count(RegionOptionsEntity, { region: empty.id })).toBe(0);
  });

  it('refuses a region with an inactive membership too', async ({ db }) => {
    const quiet = await createRegion(db.em(), { name: 'Quiet', type: RegionType.City });
    const user = await createUser(db.em(), {
      email: 'quiet@example.org',
      firstName: 'Q',
      lastName: 'Uiet',
      password: 'long enough',
    });
    await addMembership(db.em(), user.id, quiet.id);
    await db
      .em()
      .execute('update region_memberships set active = false where region_id = ?', [quiet.id]);
    await expect(deleteRegionCommand(db.em(), quiet.id)).rejects.toMatchObject({
      code: 'REGION_IN_USE',
    });
    expect(await db.em().count(RegionEntity, { id: quiet.id })).toBe(1);
  });
});

import {
  addAdmin,
  addMembership,
  createRegion,
  createUser,
  RegionEntity,
  RegionOptionsEntity,
  RegionType,
  WorkGroupFunction,
  type RegionEntity as Region,
} from '@foodshare/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestOrm } from '../test-support/test-orm.ts';
import {
  deleteRegionCommand,
  listRegionsCommand,
  showRegionCommand,
  updateRegionCommand,
} from './region-admin.command.ts';

const db = useTestOrm();
let state: Region;
let city: Region;
let town: Region;
let group: Region;

beforeAll(async () => {
  state = await createRegion(db.em(), { name: 'Sachsen', type: RegionType.FederalState });
  city = await createRegion(db.em(), {
    name: 'Leipzig',
    type: RegionType.City,
    parentId: state.id,
  });
  town = await createRegion(db.em(), {
    name: 'Connewitz',
    type: RegionType.PartOfTown,
    parentId: city.id,
  });
  group = await createRegion(db.em(), { name: 'AG Leipzig', type: RegionType.WorkingGroup });
  const user = await createUser(db.em(), {
    email: 'ambassador@example.org',
    firstName: 'Ada',
    lastName: 'Ambassador',
    password: 'long enough',
  });
  await addAdmin(db.em(), user.id, city.id);
});

describe('regions list', () => {
  it('pages by id and filters by parent and type', async () => {
    const all = await listRegionsCommand(db.em(), { limit: 100, offset: 0 });
    expect(all.map((region) => region.id)).toEqual([state.id, city.id, town.id, group.id]);
    const page = await listRegionsCommand(db.em(), { limit: 2, offset: 1 });
    expect(page.map((region) => region.id)).toEqual([city.id, town.id]);
    const below = await listRegionsCommand(db.em(), { limit: 100, offset: 0, parentId: city.id });
    expect(below).toEqual([
      {
        id: town.id,
        name: 'Connewitz',
        type: RegionType.PartOfTown,
        parentId: city.id,
        workgroupFunction: null,
      },
    ]);
    const groups = await listRegionsCommand(db.em(), {
      limit: 100,
      offset: 0,
      type: RegionType.WorkingGroup,
    });
    expect(groups.map((region) => region.id)).toEqual([group.id]);
  });
});

describe('regions show', () => {
  it('counts members and sub-regions and names the admins', async () => {
    const shown = await showRegionCommand(db.em(), city.id);
    expect(shown).toMatchObject({ id: city.id, parentId: state.id, members: 1, children: 1 });
    expect(shown.admins).toEqual([{ id: expect.any(Number), email: 'ambassador@example.org' }]);
  });

  it('refuses an unknown region', async () => {
    await expect(showRegionCommand(db.em(), 424_242)).rejects.toMatchObject({
      code: 'REGION_NOT_FOUND',
    });
  });
});

describe('regions update', () => {
  it('renames, moves and gives a working group its function', async () => {
    const renamed = await updateRegionCommand(db.em(), town.id, { name: ' Südvorstadt ' });
    expect(renamed).toMatchObject({ name: 'Südvorstadt', parentId: city.id });
    const moved = await updateRegionCommand(db.em(), group.id, {
      parentId: city.id,
      workgroupFunction: WorkGroupFunction.Welcome,
    });
    expect(moved).toMatchObject({
      parentId: city.id,
      workgroupFunction: WorkGroupFunction.Welcome,
    });
    const topLevel = await updateRegionCommand(db.em(), group.id, {
      parentId: null,
      workgroupFunction: null,
    });
    expect(topLevel).toMatchObject({ parentId: null, workgroupFunction: null });
    const stored = await db.em().findOneOrFail(RegionEntity, town.id);
    expect(stored.name).toBe('Südvorstadt');
  });

  it.each([
    ['a parent below it', () => ({ parentId: town.id }), 'INVALID_INPUT'],
    ['itself as parent', () => ({ parentId: city.id }), 'INVALID_INPUT'],
    ['an unknown parent', () => ({ parentId: 424_242 }), 'REGION_NOT_FOUND'],
    [
      'a function for a city',
      () => ({ workgroupFunction: WorkGroupFunction.Board }),
      'INVALID_INPUT',
    ],
    ['an empty name', () => ({ name: '  ' }), 'INVALID_INPUT'],
  ])('refuses %s with %s and changes nothing', async (_, change, code) => {
    await expect(
      updateRegionCommand(db.em(), city.id, { name: 'Changed', ...change() }),
    ).rejects.toMatchObject({ code });
    const stored = await db.em().findOneOrFail(RegionEntity, city.id);
    expect(stored).toMatchObject({ name: 'Leipzig', workgroupFunction: null });
    expect(stored.parent?.id).toBe(state.id);
  });
});

describe('regions delete', () => {
  it('refuses a region with sub-regions, members or admins and leaves them all', async () => {
    await expect(deleteRegionCommand(db.em(), city.id)).rejects.toMatchObject({
      code: 'REGION_IN_USE',
      message: expect.stringMatching(
        /1 in region_admins\.region_id, 1 in region_memberships\.region_id, 1 in regions\.parent_id/,
      ),
    });
    expect(await showRegionCommand(db.em(), city.id)).toMatchObject({ members: 1, children: 1 });
  });

  it('deletes a region nothing depends on, with its own settings row', async () => {
    const empty = await createRegion(db.em(), { name: 'Empty', type: RegionType.City });
    const em = db.em();
    em.create(RegionOptionsEntity, { region: empty.id });
    await em.flush();
    expect(await deleteRegionCommand(db.em(), empty.id)).toEqual({ id: empty.id, name: 'Empty' });
    expect(await db.em().count(RegionEntity, { id: empty.id })).toBe(0);
    expect(await db.em().count(RegionOptionsEntity, { region: empty.id })).toBe(0);
  });

  it('refuses a region with an inactive membership too', async () => {
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

import {
  RegionEntity,
  WorkGroupFunction,
  type RegionEntity as Region,
  type UpdateRegionInput,
} from '@foodshare/domain';
import { regionTree } from '../../test-support/region-tree.ts';
import { describe, expect, it, test } from '../../test-support/fixtures.ts';
import { updateRegionCommand } from './update.command.ts';

let state: Region;
let city: Region;
let town: Region;
let group: Region;

test.beforeAll(async ({ db }) => {
  ({ state, city, town, group } = await regionTree(db));
});

describe('regions update', () => {
  it('renames, moves and gives a working group its function', async ({ db }) => {
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

  it.for<[string, () => UpdateRegionInput, string]>([
    ['a parent below it', () => ({ parentId: town.id }), 'INVALID_INPUT'],
    ['itself as parent', () => ({ parentId: city.id }), 'INVALID_INPUT'],
    ['an unknown parent', () => ({ parentId: 424_242 }), 'REGION_NOT_FOUND'],
    [
      'a function for a city',
      () => ({ workgroupFunction: WorkGroupFunction.Board }),
      'INVALID_INPUT',
    ],
    ['an empty name', () => ({ name: '  ' }), 'INVALID_INPUT'],
  ])('refuses %s with %s and changes nothing', async ([_, change, code], { db }) => {
    await expect(
      updateRegionCommand(db.em(), city.id, { name: 'Changed', ...change() }),
    ).rejects.toMatchObject({ code });
    const stored = await db.em().findOneOrFail(RegionEntity, city.id);
    expect(stored).toMatchObject({ name: 'Leipzig', workgroupFunction: null });
    expect(stored.parent?.id).toBe(state.id);
  });
});

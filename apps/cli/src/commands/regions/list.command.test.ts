import { RegionType, type RegionEntity as Region } from '@foodshare/domain';
import { regionTree } from '../../test-support/region-tree.ts';
import { describe, expect, it, test } from '../../test-support/fixtures.ts';
import { listRegionsCommand } from './list.command.ts';

let state: Region;
let city: Region;
let town: Region;
let group: Region;

test.beforeAll(async ({ db }) => {
  ({ state, city, town, group } = await regionTree(db));
});

describe('regions list', () => {
  it('pages by id and filters by parent and type', async ({ db }) => {
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

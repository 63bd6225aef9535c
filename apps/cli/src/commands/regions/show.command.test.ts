import { type RegionEntity as Region } from '@foodshare/domain';
import { regionTree } from '../../test-support/region-tree.ts';
import { describe, expect, it, test } from '../../test-support/fixtures.ts';
import { showRegionCommand } from './show.command.ts';

let state: Region;
let city: Region;

test.beforeAll(async ({ db }) => {
  ({ state, city } = await regionTree(db));
});

describe('regions show', () => {
  it('counts members and sub-regions and names the admins', async ({ db }) => {
    const shown = await showRegionCommand(db.em(), city.id);
    expect(shown).toMatchObject({ id: city.id, parentId: state.id, members: 1, children: 1 });
    expect(shown.admins).toEqual([{ id: expect.any(Number), email: 'ambassador@example.org' }]);
  });

  it('refuses an unknown region', async ({ db }) => {
    await expect(showRegionCommand(db.em(), 424_242)).rejects.toMatchObject({
      code: 'REGION_NOT_FOUND',
    });
  });
});

import { RegionEntity, RegionType, WellKnownUnit, WorkGroupFunction } from '@foodshare/domain';
import { parseCode } from '../../cli-runtime.ts';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { createRegionCommand, type CreateRegionOptions } from './create.command.ts';
import { REGION_TYPE_NAMES } from './region-names.ts';

describe('regions create', () => {
  it('creates a region under its parent', async ({ db }) => {
    const country = await createRegionCommand(db.em(), {
      name: 'Deutschland',
      type: RegionType.Country,
    });
    const city = await createRegionCommand(db.em(), {
      name: 'Münster',
      type: RegionType.City,
      parentId: country.id,
    });
    expect(city).toEqual({
      id: city.id,
      name: 'Münster',
      type: RegionType.City,
      parentId: country.id,
      workgroupFunction: null,
    });
    const stored = await db.em().findOneOrFail(RegionEntity, city.id);
    expect(stored.parent?.id).toBe(country.id);
  });

  it('takes an explicit id, and later regions get ids above it', async ({ db }) => {
    const group = await createRegionCommand(db.em(), {
      id: WellKnownUnit.OAuthClientAdministration,
      name: 'OAuth clients',
      type: RegionType.WorkingGroup,
    });
    expect(group.id).toBe(6704);
    const next = await createRegionCommand(db.em(), { name: 'Next', type: RegionType.City });
    expect(next.id).toBeGreaterThan(6704);
  });

  it('gives a working group its function', async ({ db }) => {
    const group = await createRegionCommand(db.em(), {
      name: 'Moderation Münster',
      type: RegionType.WorkingGroup,
      workgroupFunction: WorkGroupFunction.Moderation,
    });
    expect(group.workgroupFunction).toBe(WorkGroupFunction.Moderation);
  });

  it.for<[Partial<CreateRegionOptions>, string]>([
    [{ id: WellKnownUnit.OAuthClientAdministration }, 'REGION_ID_TAKEN'],
    [{ parentId: 123_456 }, 'REGION_NOT_FOUND'],
    [{ workgroupFunction: WorkGroupFunction.Moderation }, 'INVALID_INPUT'],
    [{ name: ' ' }, 'INVALID_INPUT'],
    [{ type: 4 as RegionType }, 'INVALID_INPUT'],
  ])('refuses %o with %s', async ([change, code], { db }) => {
    await expect(
      createRegionCommand(db.em(), { name: 'Refused', type: RegionType.City, ...change }),
    ).rejects.toMatchObject({ code });
    expect(await db.em().count(RegionEntity, { name: 'Refused' })).toBe(0);
  });

  it('reads region types by name or code', () => {
    const parseType = parseCode('region type', REGION_TYPE_NAMES);
    expect(parseType('working-group')).toBe(RegionType.WorkingGroup);
    expect(parseType('9')).toBe(RegionType.PartOfTown);
    expect(() => parseType('4')).toThrow(/Unknown region type/);
  });
});

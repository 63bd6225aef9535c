import { RegionSchema, type Region } from '@foodshare/schemas';
import { Value } from 'typebox/value';
import { describe, expect, it } from './fixtures.ts';
import { platformRequest } from './platform-client.ts';

// The call of the platform's web client in client/src/api/regions.js that reads a region.
describe('web client regions.js against GET /api/regions/{regionId}', () => {
  it('getRegionData', async ({ app, as }) => {
    // get(`/regions/${regionId}`) from the region administration page, which orga opens.
    const orga = await as('orga');
    const city = await platformRequest(app, orga, { method: 'GET', url: '/api/regions/3' });
    expect(city.statusCode).toBe(200);
    expect(Value.Errors(RegionSchema, city.json())).toEqual([]);
    expect(city.json<Region>()).toMatchObject({
      parentId: 2,
      masterId: 0,
      mailbox: 'musterstadt',
      workgroupFunction: 0,
      timezone: null,
    });
    // The root: the page reads 0 and '' where the unit has nothing, never null.
    const root = await platformRequest(app, orga, { method: 'GET', url: '/api/regions/1' });
    expect(root.json<Region>()).toMatchObject({
      parentId: 0,
      masterId: 0,
      mailbox: '',
      emailName: '',
      workgroupFunction: 0,
    });
  });

  it('getRegionData as the region’s own ambassador', async ({ app, as }) => {
    const dana = await as('dana');
    const response = await platformRequest(app, dana, { method: 'GET', url: '/api/regions/3' });
    expect(response.statusCode).toBe(403);
  });
});

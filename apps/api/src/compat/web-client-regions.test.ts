import { RegionSchema, type Region } from '@foodshare/schemas';
import { signInAs } from '@foodshare/server-kit/test-support';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiApp } from '../app.ts';
import { buildTestApp } from '../test-support/build-test-app.ts';
import { platformRequest } from './platform-client.ts';

const ids = inject('demoIds');

// The call of the platform's web client in client/src/api/regions.js that reads a region.
describe('web client regions.js against GET /api/regions/{regionId}', () => {
  let app: ApiApp;

  beforeAll(async () => {
    ({ app } = await buildTestApp());
  });

  afterAll(async () => {
    await app.close();
  });

  it('getRegionData', async () => {
    // get(`/regions/${regionId}`) from the region administration page, which orga opens.
    const orga = await signInAs(app, ids.users.orga);
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

  it('getRegionData as the region’s own ambassador', async () => {
    const dana = await signInAs(app, ids.users.dana);
    const response = await platformRequest(app, dana, { method: 'GET', url: '/api/regions/3' });
    expect(response.statusCode).toBe(403);
  });
});

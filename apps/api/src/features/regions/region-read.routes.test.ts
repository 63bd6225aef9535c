import { DemoRegionId } from '@foodshare/domain';
import { RegionSchema } from '@foodshare/schemas';
import { Value } from 'typebox/value';
import { type ApiClient, describe, expect, ids, it, test } from '../../test-support/fixtures.ts';

const read = (client: ApiClient, regionId: number | string) =>
  client.get(`/api/regions/${regionId}`);

describe('GET /api/regions/{regionId}', () => {
  let roleUsers: number[] = [];

  test.beforeAll(async ({ factory }) => {
    roleUsers = await factory.userOfEachRole({ firstName: 'Rita', lastName: 'Region' });
  });

  it.for<[string, number, unknown]>([
    [
      'a city with its ambassador, inheriting its time zone',
      3,
      {
        id: 3,
        name: 'Musterstadt',
        type: 1,
        adminIds: [ids.users.dana],
        parentId: 2,
        masterId: 0,
        mailbox: 'musterstadt',
        emailName: 'Foodsharing Musterstadt',
        workgroupFunction: 0,
        allowHidingInForum: true,
        timezone: null,
      },
    ],
    [
      'the root country with its own time zone and no admins: 0 and empty where nothing is set',
      1,
      {
        id: 1,
        name: 'Deutschland',
        type: 6,
        adminIds: [],
        parentId: 0,
        masterId: 0,
        mailbox: '',
        emailName: '',
        workgroupFunction: 0,
        allowHidingInForum: false,
        timezone: 'Europe/Berlin',
      },
    ],
    [
      'a working group with its function',
      5,
      expect.objectContaining({
        type: 7,
        adminIds: [ids.users.alice],
        parentId: 3,
        workgroupFunction: 9,
      }),
    ],
  ])('shows orga %s', async ([_what, regionId, expected], { as }) => {
    const response = await read(await as('orga'), regionId);
    expect(response.statusCode).toBe(200);
    expect(Value.Check(RegionSchema, response.json())).toBe(true);
    expect(response.json()).toEqual(expected);
  });

  it('lists every admin id, in order', async ({ as, factory }) => {
    await factory.addAdmin(DemoRegionId.Beispieldorf, roleUsers[3]!, roleUsers[1]!);
    const response = await read(await as('orga'), 4);
    expect(response.json().adminIds).toEqual([roleUsers[1], roleUsers[3]]);
  });

  it.for<[string, number, boolean]>([
    ['foodsharer (0)', 0, false],
    ['foodsaver (1)', 1, false],
    ['store manager (2)', 2, false],
    ['ambassador (3)', 3, false],
    ['orga (4)', 4, true],
  ])('%s may read: %s', async ([_who, role, allowed], { as }) => {
    const response = await read(await as(roleUsers[role]!), 3);
    expect(response.statusCode).toBe(allowed ? 200 : 403);
    if (!allowed) expect(response.json()).toMatchObject({ code: 'REGION_ADMIN_VIEW_FORBIDDEN' });
  });

  it("refuses dana, the region's own ambassador: the view is orga's", async ({ as }) => {
    const response = await read(await as('dana'), 3);
    expect(response.statusCode).toBe(403);
  });

  it('answers 401 without a session', async ({ anonymous }) => {
    const response = await read(anonymous, 3);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it.for<[string, string]>([
    ['an unknown region', '999999'],
    ['a leading zero', '03'],
    ['letters', 'abc'],
    ['0', '0'],
    ['a negative id', '-3'],
    ['an id beyond 32 bits', '4294967296'],
    ['the largest 32-bit id, which names no region', '2147483647'],
  ])('answers 404 for %s', async ([_what, regionId], { as }) => {
    const response = await read(await as('orga'), regionId);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

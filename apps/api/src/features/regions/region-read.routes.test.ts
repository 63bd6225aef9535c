import { openOrm, type MikroORM } from '@foodshare/domain';
import { RegionSchema } from '@foodshare/schemas';
import { signInAs } from '@foodshare/server-kit/test-support';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiApp } from '../../app.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';

const ids = inject('demoIds');

describe('GET /api/regions/{regionId}', () => {
  let app: ApiApp;
  let orm: MikroORM;
  const roleUsers: number[] = [];

  beforeAll(async () => {
    const built = await buildTestApp();
    app = built.app;
    orm = await openOrm({ url: built.database.url });
    for (const role of [0, 1, 2, 3, 4]) {
      const rows = await orm.em.fork().execute<{ id: number }[]>(
        `insert into users (first_name, last_name, email, password_hash, role, verified)
         values ('Rita', 'Region', ?, 'x', ?, true) returning id`,
        [`role${role}@region-read.example.org`, role],
      );
      roleUsers.push(rows[0]!.id);
    }
  });

  afterAll(async () => {
    await app.close();
    await orm.close();
  });

  const read = async (userId: number | null, regionId: number | string) =>
    app.inject({
      method: 'GET',
      url: `/api/regions/${regionId}`,
      ...(userId === null ? {} : { cookies: (await signInAs(app, userId)).cookies }),
    });

  it.each([
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
  ])('shows orga %s', async (_what, regionId, expected) => {
    const response = await read(ids.users.orga, regionId);
    expect(response.statusCode).toBe(200);
    expect(Value.Check(RegionSchema, response.json())).toBe(true);
    expect(response.json()).toEqual(expected);
  });

  it('lists every admin id, in order', async () => {
    const em = orm.em.fork();
    await em.execute('insert into region_admins (region_id, user_id) values (4, ?), (4, ?)', [
      roleUsers[3],
      roleUsers[1],
    ]);
    const response = await read(ids.users.orga, 4);
    expect(response.json().adminIds).toEqual([roleUsers[1], roleUsers[3]]);
  });

  it.each([
    ['foodsharer (0)', 0, false],
    ['foodsaver (1)', 1, false],
    ['store manager (2)', 2, false],
    ['ambassador (3)', 3, false],
    ['orga (4)', 4, true],
  ])('%s may read: %s', async (_who, role, allowed) => {
    const response = await read(roleUsers[role]!, 3);
    expect(response.statusCode).toBe(allowed ? 200 : 403);
    if (!allowed) expect(response.json()).toMatchObject({ code: 'REGION_ADMIN_VIEW_FORBIDDEN' });
  });

  it("refuses dana, the region's own ambassador: the view is orga's", async () => {
    const response = await read(ids.users.dana, 3);
    expect(response.statusCode).toBe(403);
  });

  it('answers 401 without a session', async () => {
    const response = await read(null, 3);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it.each([
    ['an unknown region', '999999'],
    ['a leading zero', '03'],
    ['letters', 'abc'],
    ['0', '0'],
    ['a negative id', '-3'],
    ['an id beyond 32 bits', '4294967296'],
    ['the largest 32-bit id, which names no region', '2147483647'],
  ])('answers 404 for %s', async (_what, regionId) => {
    const response = await read(ids.users.orga, regionId);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

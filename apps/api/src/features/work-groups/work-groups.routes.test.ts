import {
  WorkGroupApplicationDeclinedSchema,
  WorkGroupApplicationListSchema,
} from '@foodshare/schemas';
import { Value } from 'typebox/value';
import {
  type ApiClient,
  describe,
  expect,
  ids,
  it,
  type Sql,
  test,
} from '../../test-support/fixtures.ts';
import {
  createManyUsers,
  expectPagesOf,
  INVALID_PAGE_QUERIES,
  VALID_PAGE_QUERIES,
} from '../../test-support/paging.ts';

const GROUP = 5; // Öffentlichkeitsarbeit Musterstadt (public relations): alice is its admin.
const MUSTERSTADT = 3;

async function apply(sql: Sql, groupId: number, userId: number): Promise<void> {
  await sql(
    `insert into work_group_applications (group_id, user_id, message) values (?, ?, 'Hallo')
     on conflict do nothing`,
    [groupId, userId],
  );
}

async function pending(sql: Sql, groupId: number, userId: number): Promise<boolean> {
  const rows = await sql<unknown[]>(
    'select 1 from work_group_applications where group_id = ? and user_id = ?',
    [groupId, userId],
  );
  return rows.length > 0;
}

const decline = (client: ApiClient, groupId: number | string, userId: number | string) =>
  client.delete(`/api/groups/${groupId}/applications/${userId}`);

const list = (client: ApiClient, groupId: number | string) =>
  client.get(`/api/groups/${groupId}/applications`);

describe('working-group applications: DELETE and GET /api/groups/{groupId}/applications', () => {
  /** A report (function 5, restricted) working group of Musterstadt that alice administers. */
  let reportGroup: number;
  let roleUsers: number[] = [];

  test.beforeAll(async ({ factory }) => {
    roleUsers = await factory.userOfEachRole();
    reportGroup = await factory.workGroup(MUSTERSTADT, 5, 'Meldegruppe Musterstadt');
    await factory.addAdmin(reportGroup, ids.users.alice);
  });

  test.beforeEach(async ({ sql }) => {
    await apply(sql, GROUP, ids.users.carla);
    await apply(sql, reportGroup, ids.users.carla);
  });

  it('lists carla as a pending applicant for the group admin', async ({ as }) => {
    const response = await list(await as('alice'), GROUP);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Value.Check(WorkGroupApplicationListSchema, body)).toBe(true);
    expect(body).toEqual([
      {
        user: { id: ids.users.carla, name: 'Carla', avatar: null, isSleeping: false },
        message: expect.any(String),
        appliedAt: expect.any(String),
      },
    ]);
  });

  it('declines carla: the application is gone, a second decline still answers 200', async ({
    as,
    sql,
  }) => {
    const alice = await as('alice');
    const first = await decline(alice, GROUP, ids.users.carla);
    expect(first.statusCode).toBe(200);
    expect(Value.Check(WorkGroupApplicationDeclinedSchema, first.json())).toBe(true);
    expect(first.json()).toEqual({ groupId: GROUP, userId: ids.users.carla, declined: true });
    expect(await pending(sql, GROUP, ids.users.carla)).toBe(false);
    expect((await list(alice, GROUP)).json()).toEqual([]);

    const again = await decline(alice, GROUP, ids.users.carla);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ declined: false });
    const nobody = await decline(alice, GROUP, 2_000_000_000);
    expect(nobody.json()).toMatchObject({ declined: false });
  });

  describe.each([
    ['a group without a restricted function', () => GROUP],
    ['a restricted (report) group', () => reportGroup],
  ])('permissions on %s', (label, group) => {
    const restricted = label.startsWith('a restricted');
    it.for<[string, number, boolean]>([
      ['foodsharer (0)', 0, false],
      ['foodsaver (1)', 1, false],
      ['store manager (2)', 2, false],
      ['ambassador (3) without relation', 3, false],
      ['orga (4)', 4, true],
    ])('%s may decline: %s', async ([_who, role, allowed], { as, sql }) => {
      const client = await as(roleUsers[role]!);
      const response = await decline(client, group(), ids.users.carla);
      expect(response.statusCode).toBe(allowed ? 200 : 403);
      if (!allowed) {
        expect(response.json()).toMatchObject({ code: 'WORK_GROUP_APPLICATIONS_FORBIDDEN' });
      }
      expect(await pending(sql, group(), ids.users.carla)).toBe(!allowed);
      expect((await list(client, group())).statusCode).toBe(allowed ? 200 : 403);
    });

    it.for([
      ['alice, admin of the group', 'alice', !restricted],
      ['dana, ambassador of the parent region', 'dana', false],
      ['carla, the applicant herself', 'carla', false],
      ['kim, unrelated store manager', 'kim', false],
      ['orga', 'orga', true],
    ] as const)('%s', async ([_who, name, allowed], { as, sql }) => {
      const client = await as(name);
      const response = await decline(client, group(), ids.users.carla);
      expect(response.statusCode).toBe(allowed ? 200 : 403);
      expect(await pending(sql, group(), ids.users.carla)).toBe(!allowed);
      expect((await list(client, group())).statusCode).toBe(allowed ? 200 : 403);
    });
  });

  it('answers 401 without a session, for both routes', async ({ sql, anonymous }) => {
    expect((await decline(anonymous, GROUP, ids.users.carla)).statusCode).toBe(401);
    expect((await list(anonymous, GROUP)).statusCode).toBe(401);
    expect(await pending(sql, GROUP, ids.users.carla)).toBe(true);
  });

  it('refuses a decline without the CSRF token', async ({ as, sql }) => {
    const response = await decline((await as('alice')).withoutCsrf(), GROUP, ids.users.carla);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CSRF_FAILED' });
    expect(await pending(sql, GROUP, ids.users.carla)).toBe(true);
  });

  it('pages the applications with limit and offset, oldest first, 100 by default', async ({
    app,
    as,
    sql,
    factory,
  }) => {
    const group = await factory.workGroup(MUSTERSTADT, null, 'Viele Bewerbungen');
    const applicants = await createManyUsers(app.orm, 'Bewerber', 101);
    // The n-th applicant applied n minutes after the first: oldest first is the order of ids.
    await sql(
      `insert into work_group_applications (group_id, user_id, message, applied_at)
       select ?, u, 'Hallo', now() - interval '1 day' + make_interval(mins => u - ?)
         from unnest(?::int[]) as u`,
      [group, applicants[0]!, `{${applicants.join(',')}}`],
    );
    const orga = await as('orga');
    const page = async (query: string) => {
      const response = await orga.get(`/api/groups/${group}/applications?${query}`);
      expect(response.statusCode).toBe(200);
      return response.json<{ user: { id: number } }[]>().map((item) => item.user.id);
    };
    await expectPagesOf(applicants, page);
  });

  it.for(INVALID_PAGE_QUERIES)('answers 400 to the list for %s', async ([query], { as }) => {
    const response = await (await as('alice')).get(`/api/groups/${GROUP}/applications?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it.for(VALID_PAGE_QUERIES)('accepts %s for the list', async ([query], { as }) => {
    const response = await (await as('alice')).get(`/api/groups/${GROUP}/applications?${query}`);
    expect(response.statusCode).toBe(200);
  });

  it.for<[string, number | string, string]>([
    ['an unknown group', 999_999, 'user'],
    ['a region that is not a working group', MUSTERSTADT, 'user'],
    ['a group id with a leading zero', '05', 'user'],
    ['a group id of letters', 'abc', 'user'],
    ['group id 0', '0', 'user'],
    ['a group id beyond 32 bits', '4294967296', 'user'],
    ['a user id with a leading zero', GROUP, '0carla'],
    ['a user id beyond 32 bits', GROUP, '4294967296'],
  ])('answers 404 for %s', async ([_what, groupId, userId], { as, sql }) => {
    const orga = await as('orga');
    const user =
      userId === 'user' ? ids.users.carla : userId === '0carla' ? `0${ids.users.carla}` : userId;
    const response = await decline(orga, groupId, user);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    if (userId === 'user') expect((await list(orga, groupId)).statusCode).toBe(404);
    expect(await pending(sql, GROUP, ids.users.carla)).toBe(true);
  });
});

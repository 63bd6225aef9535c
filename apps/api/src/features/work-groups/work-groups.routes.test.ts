import { openOrm, type MikroORM } from '@foodshare/domain';
import {
  WorkGroupApplicationDeclinedSchema,
  WorkGroupApplicationListSchema,
} from '@foodshare/schemas';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { ApiApp } from '../../app.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';
import {
  createManyUsers,
  expectPagesOf,
  INVALID_PAGE_QUERIES,
  VALID_PAGE_QUERIES,
} from '../../test-support/paging.ts';

const ids = inject('demoIds');
const GROUP = 5; // Öffentlichkeitsarbeit Musterstadt (public relations): alice is its admin.
const MUSTERSTADT = 3;

describe('working-group applications: DELETE and GET /api/groups/{groupId}/applications', () => {
  let app: ApiApp;
  let orm: MikroORM;
  /** A report (function 5, restricted) working group of Musterstadt that alice administers. */
  let reportGroup: number;
  const roleUsers: number[] = [];

  const sql = async <T = unknown>(query: string, params: unknown[] = []): Promise<T> =>
    (await orm.em.fork().execute(query, params)) as T;

  async function createUser(tag: string, role: number): Promise<number> {
    const rows = await sql<{ id: number }[]>(
      `insert into users (first_name, last_name, email, password_hash, role, verified)
       values (?, 'Test', ?, 'x', ?, true) returning id`,
      [tag, `${tag}@wg.example.org`, role],
    );
    return rows[0]!.id;
  }

  async function apply(groupId: number, userId: number): Promise<void> {
    await sql(
      `insert into work_group_applications (group_id, user_id, message) values (?, ?, 'Hallo')
       on conflict do nothing`,
      [groupId, userId],
    );
  }

  async function pending(groupId: number, userId: number): Promise<boolean> {
    const rows = await sql<unknown[]>(
      'select 1 from work_group_applications where group_id = ? and user_id = ?',
      [groupId, userId],
    );
    return rows.length > 0;
  }

  const decline = (
    client: SignedInClient | null,
    groupId: number | string,
    userId: number | string,
    csrf = true,
  ) =>
    app.inject({
      method: 'DELETE',
      url: `/api/groups/${groupId}/applications/${userId}`,
      ...(client ? { cookies: client.cookies, ...(csrf ? { headers: client.headers } : {}) } : {}),
    });

  const list = (client: SignedInClient | null, groupId: number | string) =>
    app.inject({
      method: 'GET',
      url: `/api/groups/${groupId}/applications`,
      ...(client ? { cookies: client.cookies } : {}),
    });

  beforeAll(async () => {
    const built = await buildTestApp();
    app = built.app;
    orm = await openOrm({ url: built.database.url });
    for (const role of [0, 1, 2, 3, 4]) roleUsers.push(await createUser(`role${role}`, role));
    const rows = await sql<{ id: number }[]>(
      `insert into regions (name, type, parent_id, workgroup_function)
       values ('Meldegruppe Musterstadt', 7, ?, 5) returning id`,
      [MUSTERSTADT],
    );
    reportGroup = rows[0]!.id;
    await sql('insert into region_admins (region_id, user_id) values (?, ?)', [
      reportGroup,
      ids.users.alice,
    ]);
  });

  afterAll(async () => {
    await app.close();
    await orm.close();
  });

  beforeEach(async () => {
    await apply(GROUP, ids.users.carla);
    await apply(reportGroup, ids.users.carla);
  });

  it('lists carla as a pending applicant for the group admin', async () => {
    const response = await list(await signInAs(app, ids.users.alice), GROUP);
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

  it('declines carla: the application is gone, a second decline still answers 200', async () => {
    const alice = await signInAs(app, ids.users.alice);
    const first = await decline(alice, GROUP, ids.users.carla);
    expect(first.statusCode).toBe(200);
    expect(Value.Check(WorkGroupApplicationDeclinedSchema, first.json())).toBe(true);
    expect(first.json()).toEqual({ groupId: GROUP, userId: ids.users.carla, declined: true });
    expect(await pending(GROUP, ids.users.carla)).toBe(false);
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
    it.each([
      ['foodsharer (0)', 0, false],
      ['foodsaver (1)', 1, false],
      ['store manager (2)', 2, false],
      ['ambassador (3) without relation', 3, false],
      ['orga (4)', 4, true],
    ])('%s may decline: %s', async (_who, role, allowed) => {
      const client = await signInAs(app, roleUsers[role]!);
      const response = await decline(client, group(), ids.users.carla);
      expect(response.statusCode).toBe(allowed ? 200 : 403);
      if (!allowed) {
        expect(response.json()).toMatchObject({ code: 'WORK_GROUP_APPLICATIONS_FORBIDDEN' });
      }
      expect(await pending(group(), ids.users.carla)).toBe(!allowed);
      expect((await list(client, group())).statusCode).toBe(allowed ? 200 : 403);
    });

    it.each([
      ['alice, admin of the group', 'alice', !restricted],
      ['dana, ambassador of the parent region', 'dana', false],
      ['carla, the applicant herself', 'carla', false],
      ['kim, unrelated store manager', 'kim', false],
      ['orga', 'orga', true],
    ] as const)('%s', async (_who, name, allowed) => {
      const client = await signInAs(app, ids.users[name]);
      const response = await decline(client, group(), ids.users.carla);
      expect(response.statusCode).toBe(allowed ? 200 : 403);
      expect(await pending(group(), ids.users.carla)).toBe(!allowed);
      expect((await list(client, group())).statusCode).toBe(allowed ? 200 : 403);
    });
  });

  it('answers 401 without a session, for both routes', async () => {
    expect((await decline(null, GROUP, ids.users.carla)).statusCode).toBe(401);
    expect((await list(null, GROUP)).statusCode).toBe(401);
    expect(await pending(GROUP, ids.users.carla)).toBe(true);
  });

  it('refuses a decline without the CSRF token', async () => {
    const response = await decline(
      await signInAs(app, ids.users.alice),
      GROUP,
      ids.users.carla,
      false,
    );
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CSRF_FAILED' });
    expect(await pending(GROUP, ids.users.carla)).toBe(true);
  });

  it('pages the applications with limit and offset, oldest first, 100 by default', async () => {
    const rows = await sql<{ id: number }[]>(
      `insert into regions (name, type, parent_id) values ('Viele Bewerbungen', 7, ?) returning id`,
      [MUSTERSTADT],
    );
    const group = rows[0]!.id;
    const applicants = await createManyUsers(orm, 'Bewerber', 101);
    // The n-th applicant applied n minutes after the first: oldest first is the order of ids.
    await sql(
      `insert into work_group_applications (group_id, user_id, message, applied_at)
       select ?, u, 'Hallo', now() - interval '1 day' + make_interval(mins => u - ?)
         from unnest(?::int[]) as u`,
      [group, applicants[0]!, `{${applicants.join(',')}}`],
    );
    const orga = await signInAs(app, ids.users.orga);
    const page = async (query: string) => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/groups/${group}/applications?${query}`,
        cookies: orga.cookies,
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ user: { id: number } }[]>().map((item) => item.user.id);
    };
    await expectPagesOf(applicants, page);
  });

  it.each(INVALID_PAGE_QUERIES)('answers 400 to the list for %s', async (query) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/groups/${GROUP}/applications?${query}`,
      cookies: (await signInAs(app, ids.users.alice)).cookies,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it.each(VALID_PAGE_QUERIES)('accepts %s for the list', async (query) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/groups/${GROUP}/applications?${query}`,
      cookies: (await signInAs(app, ids.users.alice)).cookies,
    });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['an unknown group', 999_999, 'user'],
    ['a region that is not a working group', MUSTERSTADT, 'user'],
    ['a group id with a leading zero', '05', 'user'],
    ['a group id of letters', 'abc', 'user'],
    ['group id 0', '0', 'user'],
    ['a group id beyond 32 bits', '4294967296', 'user'],
    ['a user id with a leading zero', GROUP, '0carla'],
    ['a user id beyond 32 bits', GROUP, '4294967296'],
  ])('answers 404 for %s', async (_what, groupId, userId) => {
    const orga = await signInAs(app, ids.users.orga);
    const user =
      userId === 'user' ? ids.users.carla : userId === '0carla' ? `0${ids.users.carla}` : userId;
    const response = await decline(orga, groupId, user);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    if (userId === 'user') expect((await list(orga, groupId)).statusCode).toBe(404);
    expect(await pending(GROUP, ids.users.carla)).toBe(true);
  });
});

import { openOrm, type MikroORM } from '@foodshare/domain';
import { type ReportList, ReportListSchema } from '@foodshare/schemas';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { ApiApp } from '../../app.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';
import { countQueries } from '../../test-support/query-budget.ts';
import { INVALID_PAGE_QUERIES, VALID_PAGE_QUERIES } from '../../test-support/paging.ts';

const ids = inject('demoIds');

type Rows = Record<string, unknown>[];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('GET /api/users/{userId}/reports', () => {
  let app: ApiApp;
  let orm: MikroORM;
  let userCount = 0;

  const sql = <T extends Rows = Rows>(query: string, params: unknown[] = []) =>
    orm.em.fork().execute<T>(query, params);

  async function createUser(role = 1): Promise<number> {
    userCount += 1;
    const rows = await sql<{ id: number }[]>(
      `insert into users (first_name, last_name, email, password_hash, role, verified)
       values (?, 'Test', ?, 'x', ?, true) returning id`,
      [`User${userCount}`, `user${userCount}@reports.example.org`, role],
    );
    return rows[0]!.id;
  }

  async function report(reportedId: number, reporterId: number, daysAgo = 1): Promise<number> {
    const rows = await sql<{ id: number }[]>(
      `insert into reports (reporter_id, reported_id, reason, message, reported_at)
       values (?, ?, 'Grund', 'Nachricht', now() - make_interval(days => ?)) returning id`,
      [reporterId, reportedId, daysAgo],
    );
    return rows[0]!.id;
  }

  const as = (name: keyof typeof ids.users) => signInAs(app, ids.users[name]);

  const reports = (client: SignedInClient | null, userId: number | string) =>
    app.inject({
      method: 'GET',
      url: `/api/users/${userId}/reports`,
      ...(client ? { cookies: client.cookies } : {}),
    });

  beforeAll(async () => {
    const built = await buildTestApp();
    app = built.app;
    orm = await openOrm({ url: built.database.url });
  });

  afterAll(async () => {
    await app.close();
    await orm.close();
  });

  it("gives orga bob's two reports, newest first, with reporter, reported and store", async () => {
    const response = await reports(await as('orga'), ids.users.bob);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Value.Check(ReportListSchema, body)).toBe(true);
    const bob = {
      id: ids.users.bob,
      name: 'Bob',
      avatar: null,
      isSleeping: false,
      mail: 'bob@example.org',
      lastName: 'Beispiel',
    };
    expect(body).toEqual([
      {
        id: expect.any(Number),
        message: expect.stringContaining('Fairteiler'),
        reason: 'Umgangston',
        reportedAt: expect.stringMatching(ISO),
        store: null,
        reporter: {
          id: ids.users.dana,
          name: 'Dana',
          avatar: null,
          isSleeping: false,
          mail: 'dana@example.org',
          lastName: 'Berger',
        },
        reported: bob,
        forumThreadId: null,
        status: 'reports.statuses.to_do',
        consequence: null,
        reminderAt: null,
        reportedRegionId: 4,
      },
      {
        id: expect.any(Number),
        message: expect.stringContaining('Abholung'),
        reason: 'Unzuverlässig bei Abholungen',
        reportedAt: expect.stringMatching(ISO),
        store: { id: ids.storeId, name: expect.any(String) },
        reporter: {
          id: ids.users.alice,
          name: 'Alice',
          avatar: `/api/uploads/${ids.avatarUploadId}`,
          isSleeping: false,
          mail: 'alice@example.org',
          lastName: 'Mustermann',
        },
        reported: bob,
        forumThreadId: null,
        status: 'reports.statuses.in_progress',
        consequence: 'reports.consequences.warning',
        reminderAt: expect.stringMatching(ISO),
        reportedRegionId: 4,
      },
    ]);
    expect(body[0].reportedAt > body[1].reportedAt).toBe(true);
  });

  it('answers an empty list for a user nobody reported', async () => {
    const response = await reports(await as('orga'), ids.users.alice);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it.each([
    ['foodsharer (0)', 0, 403],
    ['foodsaver (1)', 1, 403],
    ['store manager (2)', 2, 403],
    ['ambassador (3)', 3, 403],
    ['orga (4)', 4, 200],
  ])('a %s reads them: %i', async (_who, role, status) => {
    const response = await reports(await signInAs(app, await createUser(role)), ids.users.bob);
    expect(response.statusCode).toBe(status);
    if (status === 403) expect(response.json()).toMatchObject({ code: 'REPORTS_FORBIDDEN' });
  });

  it.each([
    ['bob, the reported person', 'bob'],
    ['dana, ambassador and one of the reporters', 'dana'],
    ['alice, the other reporter', 'alice'],
  ] as const)('refuses %s', async (_who, name) => {
    const response = await reports(await as(name), ids.users.bob);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'REPORTS_FORBIDDEN' });
  });

  it('never shows an orga member the reports about themselves', async () => {
    await report(ids.users.orga, ids.users.alice);
    const self = await reports(await as('orga'), ids.users.orga);
    expect(self.statusCode).toBe(403);
    expect(self.json()).toMatchObject({ code: 'REPORTS_FORBIDDEN' });
    const colleague = await reports(await signInAs(app, await createUser(4)), ids.users.orga);
    expect(colleague.statusCode).toBe(200);
    expect(colleague.json()).toHaveLength(1);
  });

  it('keeps a report whose reporter deleted their account, with reporter null', async () => {
    const reported = await createUser();
    const reporter = await createUser();
    await report(reported, reporter);
    await sql('delete from users where id = ?', [reporter]);
    const response = await reports(await as('orga'), reported);
    expect(response.statusCode).toBe(200);
    expect(Value.Check(ReportListSchema, response.json())).toBe(true);
    expect(response.json()).toMatchObject([{ reporter: null, reported: { id: reported } }]);
  });

  it('reads many reports in one query, whatever their number', async () => {
    const reported = await createUser();
    for (let day = 1; day <= 30; day++) await report(reported, await createUser(), day);
    const orga = await as('orga');
    const { result: response, queries } = await countQueries(app.orm, () =>
      reports(orga, reported),
    );
    expect(response.json()).toHaveLength(30);
    const days = response.json<ReportList>().map((entry) => entry.reportedAt);
    expect(days).toEqual([...days].sort().reverse());
    // The caller's account, then the reports: exactly two statements, however many reports.
    expect(queries).toBe(2);
  });

  it('gives all of them by default, and pages with limit and offset, newest first', async () => {
    const reported = await createUser();
    const reporter = await createUser();
    // The n-th report is n days old: newest first is the order of the ids.
    const rows = await sql<{ id: number }[]>(
      `insert into reports (reporter_id, reported_id, reason, message, reported_at)
       select ?, ?, 'Grund', 'Nachricht', now() - make_interval(days => n)
         from generate_series(1, 101) as n
       returning id`,
      [reporter, reported],
    );
    const all = rows.map((row) => row.id).sort((a, b) => a - b);
    const orga = await as('orga');
    const page = async (query: string) => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/users/${reported}/reports?${query}`,
        cookies: orga.cookies,
      });
      expect(response.statusCode).toBe(200);
      return response.json<ReportList>().map((item) => item.id);
    };
    expect(await page('')).toEqual(all);
    expect(await page('limit=2')).toEqual(all.slice(0, 2));
    expect(await page('limit=2&offset=99')).toEqual(all.slice(99, 101));
    expect(await page('offset=100')).toEqual(all.slice(100));
    expect(await page('offset=101')).toEqual([]);
  });

  it('serves a report without a status with status null, and free text as it is', async () => {
    const reported = await createUser();
    const untriaged = await report(reported, await createUser(), 2);
    const custom = await report(reported, await createUser(), 1);
    await sql(`update reports set status = 'Warten auf Rückmeldung' where id = ?`, [custom]);
    const response = await reports(await as('orga'), reported);
    expect(response.statusCode).toBe(200);
    expect(Value.Check(ReportListSchema, response.json())).toBe(true);
    expect(response.json()).toMatchObject([
      { id: custom, status: 'Warten auf Rückmeldung', consequence: null },
      { id: untriaged, status: null, consequence: null },
    ]);
  });

  it.each([['warning'], ['yellow_card'], ['yellow_red_card'], ['red_card']])(
    'serves the consequence %s as its translation key',
    async (consequence) => {
      const reported = await createUser();
      const id = await report(reported, await createUser());
      await sql(`update reports set consequence = ?, status = ? where id = ?`, [
        `reports.consequences.${consequence}`,
        'reports.statuses.completed',
        id,
      ]);
      const [entry] = (await reports(await as('orga'), reported)).json<ReportList>();
      expect(entry).toMatchObject({
        consequence: `reports.consequences.${consequence}`,
        status: 'reports.statuses.completed',
      });
    },
  );

  it('stores no consequence but the four translation keys', async () => {
    const id = await report(await createUser(), await createUser());
    await expect(
      sql(`update reports set consequence = 'warning' where id = ?`, [id]),
    ).rejects.toThrow(/reports_consequence_check/);
  });

  it.each(INVALID_PAGE_QUERIES)('answers 400 for %s', async (query) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/users/${ids.users.bob}/reports?${query}`,
      cookies: (await as('orga')).cookies,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it.each(VALID_PAGE_QUERIES)('accepts %s', async (query) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/users/${ids.users.bob}/reports?${query}`,
      cookies: (await as('orga')).cookies,
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers 401 without a session', async () => {
    const response = await reports(null, ids.users.bob);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('answers orga an empty list for an unknown user, and anybody else 403', async () => {
    const orga = await reports(await as('orga'), 999_999);
    expect(orga.statusCode).toBe(200);
    expect(orga.json()).toEqual([]);
    expect((await reports(await as('dana'), 999_999)).statusCode).toBe(403);
  });

  it.each([
    ['abc'],
    ['0'],
    ['-1'],
    ['4294967296'],
    ['2147483648'],
    ['1.5'],
    ['0x2'],
    ['2e0'],
    ['+2'],
  ])('answers 404 for user id %s', async (userId) => {
    const response = await reports(await as('orga'), userId);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

import { type ReportList, ReportListSchema } from '@foodshare/schemas';
import { Value } from 'typebox/value';
import {
  type ApiClient,
  describe,
  expect,
  ids,
  it,
  type Sql,
} from '../../test-support/fixtures.ts';
import { INVALID_PAGE_QUERIES, VALID_PAGE_QUERIES } from '../../test-support/paging.ts';
import { countQueries } from '@foodshare/server-kit/test-support';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function report(
  sql: Sql,
  reportedId: number,
  reporterId: number,
  daysAgo = 1,
): Promise<number> {
  const rows = await sql<{ id: number }[]>(
    `insert into reports (reporter_id, reported_id, reason, message, reported_at)
     values (?, ?, 'Grund', 'Nachricht', now() - make_interval(days => ?)) returning id`,
    [reporterId, reportedId, daysAgo],
  );
  return rows[0]!.id;
}

const reports = (client: ApiClient, userId: number | string) =>
  client.get(`/api/users/${userId}/reports`);

describe('GET /api/users/{userId}/reports', () => {
  it("gives orga bob's two reports, newest first, with reporter, reported and store", async ({
    as,
  }) => {
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

  it('answers an empty list for a user nobody reported', async ({ as }) => {
    const response = await reports(await as('orga'), ids.users.alice);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it.for<[string, number, number]>([
    ['foodsharer (0)', 0, 403],
    ['foodsaver (1)', 1, 403],
    ['store manager (2)', 2, 403],
    ['ambassador (3)', 3, 403],
    ['orga (4)', 4, 200],
  ])('a %s reads them: %i', async ([_who, role, status], { as, factory }) => {
    const response = await reports(await as(await factory.user({ role: role })), ids.users.bob);
    expect(response.statusCode).toBe(status);
    if (status === 403) expect(response.json()).toMatchObject({ code: 'REPORTS_FORBIDDEN' });
  });

  it.for([
    ['bob, the reported person', 'bob'],
    ['dana, ambassador and one of the reporters', 'dana'],
    ['alice, the other reporter', 'alice'],
  ] as const)('refuses %s', async ([_who, name], { as }) => {
    const response = await reports(await as(name), ids.users.bob);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'REPORTS_FORBIDDEN' });
  });

  it('never shows an orga member the reports about themselves', async ({ as, sql, factory }) => {
    await report(sql, ids.users.orga, ids.users.alice);
    const self = await reports(await as('orga'), ids.users.orga);
    expect(self.statusCode).toBe(403);
    expect(self.json()).toMatchObject({ code: 'REPORTS_FORBIDDEN' });
    const colleague = await reports(await as(await factory.user({ role: 4 })), ids.users.orga);
    expect(colleague.statusCode).toBe(200);
    expect(colleague.json()).toHaveLength(1);
  });

  it('keeps a report whose reporter deleted their account, with reporter null', async ({
    as,
    sql,
    factory,
  }) => {
    const reported = await factory.user();
    const reporter = await factory.user();
    await report(sql, reported, reporter);
    await sql('delete from users where id = ?', [reporter]);
    const response = await reports(await as('orga'), reported);
    expect(response.statusCode).toBe(200);
    expect(Value.Check(ReportListSchema, response.json())).toBe(true);
    expect(response.json()).toMatchObject([{ reporter: null, reported: { id: reported } }]);
  });

  it('reads many reports in one query, whatever their number', async ({
    app,
    as,
    sql,
    factory,
  }) => {
    const reported = await factory.user();
    for (let day = 1; day <= 30; day++) await report(sql, reported, await factory.user(), day);
    const orga = await as('orga');
    const { result: response, queries } = await countQueries(app.orm, () =>
      reports(orga, reported),
    );
    expect(response.json()).toHaveLength(30);
    const days = response.json<ReportList>().map((entry) => entry.reportedAt);
    expect(days).toEqual([...days].sort().reverse());
    // The reports alone (the caller's account comes with the session): one statement, however
    // many reports.
    expect(queries).toBe(1);
  });

  it('gives all of them by default, and pages with limit and offset, newest first', async ({
    as,
    sql,
    factory,
  }) => {
    const reported = await factory.user();
    const reporter = await factory.user();
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
      const response = await orga.get(`/api/users/${reported}/reports?${query}`);
      expect(response.statusCode).toBe(200);
      return response.json<ReportList>().map((item) => item.id);
    };
    expect(await page('')).toEqual(all);
    expect(await page('limit=2')).toEqual(all.slice(0, 2));
    expect(await page('limit=2&offset=99')).toEqual(all.slice(99, 101));
    expect(await page('offset=100')).toEqual(all.slice(100));
    expect(await page('offset=101')).toEqual([]);
  });

  it('serves a report without a status with status null, and free text as it is', async ({
    as,
    sql,
    factory,
  }) => {
    const reported = await factory.user();
    const untriaged = await report(sql, reported, await factory.user(), 2);
    const custom = await report(sql, reported, await factory.user(), 1);
    await sql(`update reports set status = 'Warten auf Rückmeldung' where id = ?`, [custom]);
    const response = await reports(await as('orga'), reported);
    expect(response.statusCode).toBe(200);
    expect(Value.Check(ReportListSchema, response.json())).toBe(true);
    expect(response.json()).toMatchObject([
      { id: custom, status: 'Warten auf Rückmeldung', consequence: null },
      { id: untriaged, status: null, consequence: null },
    ]);
  });

  it.for<[string]>([['warning'], ['yellow_card'], ['yellow_red_card'], ['red_card']])(
    'serves the consequence %s as its translation key',
    async ([consequence], { as, sql, factory }) => {
      const reported = await factory.user();
      const id = await report(sql, reported, await factory.user());
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

  it('stores no consequence but the four translation keys', async ({ sql, factory }) => {
    const id = await report(sql, await factory.user(), await factory.user());
    await expect(
      sql(`update reports set consequence = 'warning' where id = ?`, [id]),
    ).rejects.toThrow(/reports_consequence_check/);
  });

  it.for(INVALID_PAGE_QUERIES)('answers 400 for %s', async ([query], { as }) => {
    const response = await (await as('orga')).get(`/api/users/${ids.users.bob}/reports?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it.for(VALID_PAGE_QUERIES)('accepts %s', async ([query], { as }) => {
    const response = await (await as('orga')).get(`/api/users/${ids.users.bob}/reports?${query}`);
    expect(response.statusCode).toBe(200);
  });

  it('answers 401 without a session', async ({ anonymous }) => {
    const response = await reports(anonymous, ids.users.bob);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('answers orga an empty list for an unknown user, and anybody else 403', async ({ as }) => {
    const orga = await reports(await as('orga'), 999_999);
    expect(orga.statusCode).toBe(200);
    expect(orga.json()).toEqual([]);
    expect((await reports(await as('dana'), 999_999)).statusCode).toBe(403);
  });

  it.for<[string]>([
    ['abc'],
    ['0'],
    ['-1'],
    ['4294967296'],
    ['2147483648'],
    ['1.5'],
    ['0x2'],
    ['2e0'],
    ['+2'],
  ])('answers 404 for user id %s', async ([userId], { as }) => {
    const response = await reports(await as('orga'), userId);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

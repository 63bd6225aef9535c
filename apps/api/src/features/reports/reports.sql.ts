import { type SqlQuery } from '@foodshare/domain';
import type { Report, ReportUser } from '@foodshare/schemas';
import { isoTimestamp, userStubJson } from '../../shared/sql.ts';

/** The report user of docs/spec.md §2.2: the user stub with mail and last name. */
const reportUserJson = (alias: string) =>
  userStubJson(alias, { columns: { mail: 'email', lastName: 'last_name' } });

interface ReportRow {
  id: number;
  message: string;
  reason: string;
  reported_at: string;
  store: { id: number; name: string } | null;
  reporter: ReportUser | null;
  reported: ReportUser;
  forum_thread_id: number | null;
  status: string | null;
  consequence: Report['consequence'];
  reminder_at: string | null;
  reported_region_id: number | null;
}

/**
 * The reports about a user, newest first, reporters and stores joined; a `limit` of null is no
 * limit. The page is cut from the (reported_id, reported_at, id) index before anything is
 * joined: a prepared statement's plan is made for an average user (a report or none), and
 * joined first it fetched and sorted all 2,000 reports of a much-reported user for a page of 10.
 */
export function userReportsQuery(
  userId: number,
  page: { limit: number | null; offset: number },
): SqlQuery<ReportRow> {
  return {
    sql: `select r.id, r.message, r.reason, r.reported_at, r.status, r.consequence, r.reminder_at,
                 r.forum_thread_id, r.reported_region_id,
                 case when s.id is null then null
                      else json_build_object('id', s.id, 'name', s.name) end as store,
                 ${reportUserJson('reporter')} as reporter, ${reportUserJson('target')} as reported
            from (select * from reports
                   where reported_id = ?
                   order by reported_at desc, id desc
                   limit ? offset ?) r
            join users target on target.id = r.reported_id
            left join users reporter on reporter.id = r.reporter_id
            left join stores s on s.id = r.store_id
           order by r.reported_at desc, r.id desc`,
    params: [userId, page.limit, page.offset],
  };
}

export function reportOf(row: ReportRow): Report {
  return {
    id: row.id,
    message: row.message,
    reason: row.reason,
    reportedAt: isoTimestamp(row.reported_at),
    store: row.store,
    reporter: row.reporter,
    reported: row.reported,
    forumThreadId: row.forum_thread_id,
    status: row.status,
    consequence: row.consequence,
    reminderAt: row.reminder_at === null ? null : isoTimestamp(row.reminder_at),
    reportedRegionId: row.reported_region_id,
  };
}

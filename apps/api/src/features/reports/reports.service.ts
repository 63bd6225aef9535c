import { type Actor, type EntityManager, mayReadUserReports } from '@foodshare/domain';
import type { Report, ReportList, ReportUser } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';

/**
 * The report user of docs/spec.md §2.2 (user stub, mail and last name) from the users row `alias`.
 */
function reportUserJson(alias: string): string {
  return `case when ${alias}.id is null then null else json_build_object(
    'id', ${alias}.id,
    'name', ${alias}.first_name,
    'avatar', case when ${alias}.avatar_upload_id is null then null
                   else '/api/uploads/' || ${alias}.avatar_upload_id end,
    'isSleeping', ${alias}.sleeping,
    'mail', ${alias}.email,
    'lastName', ${alias}.last_name) end`;
}

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

const iso = (value: string) => new Date(value).toISOString();

/**
 * Orga only, never about oneself. A user without reports, or no user at all, has an empty
 * list: the answer does not say which. All of them, newest first, unless the caller asks for
 * a page. One query, reporters and stores joined.
 */
export async function listUserReports(
  em: EntityManager,
  actor: Actor,
  userId: number,
  page: { limit: number | null; offset: number },
): Promise<ReportList> {
  if (!mayReadUserReports(actor, { reportedUserId: userId })) {
    throw Problem.forbidden(
      'REPORTS_FORBIDDEN',
      'Only orga reads reports, and never the reports about themselves.',
    );
  }
  // `limit null` is no limit.
  const rows = await em.execute<ReportRow[]>(
    `select r.id, r.message, r.reason, r.reported_at, r.status, r.consequence, r.reminder_at,
            r.forum_thread_id, r.reported_region_id,
            case when s.id is null then null else json_build_object('id', s.id, 'name', s.name) end
              as store,
            ${reportUserJson('reporter')} as reporter, ${reportUserJson('target')} as reported
       from reports r
       join users target on target.id = r.reported_id
       left join users reporter on reporter.id = r.reporter_id
       left join stores s on s.id = r.store_id
      where r.reported_id = ?
      order by r.reported_at desc, r.id desc
      limit ? offset ?`,
    [userId, page.limit, page.offset],
  );
  return rows.map((row) => ({
    id: row.id,
    message: row.message,
    reason: row.reason,
    reportedAt: iso(row.reported_at),
    store: row.store,
    reporter: row.reporter,
    reported: row.reported,
    forumThreadId: row.forum_thread_id,
    status: row.status,
    consequence: row.consequence,
    reminderAt: row.reminder_at === null ? null : iso(row.reminder_at),
    reportedRegionId: row.reported_region_id,
  }));
}

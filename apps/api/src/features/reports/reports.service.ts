import { type Actor, type EntityManager, mayReadUserReports, runSql } from '@foodshare/domain';
import type { ReportList } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import { reportOf, userReportsQuery } from './reports.sql.ts';

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
  const rows = await runSql(em, userReportsQuery(userId, page));
  return rows.map(reportOf);
}

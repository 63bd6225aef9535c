import {
  RegionType,
  type WorkGroupApplicationFacts,
  type WorkGroupFunction,
  type SqlQuery,
} from '@foodshare/domain';
import type { UserStub, WorkGroupApplicationList } from '@foodshare/schemas';
import type { Page } from '../../shared/page-query.ts';
import { isoTimestamp, userStubJson } from '../../shared/sql.ts';

interface GroupFactsRow {
  workgroup_function: WorkGroupFunction | null;
  is_admin: boolean;
}

/** The working group's function and whether the user is its admin; no row: no working group. */
export function groupFactsQuery(userId: number, groupId: number): SqlQuery<GroupFactsRow> {
  return {
    sql: `select r.workgroup_function,
                 exists (select 1 from region_admins a
                          where a.region_id = r.id and a.user_id = ?) as is_admin
            from regions r
           where r.id = ? and r.type = ?`,
    params: [userId, groupId, RegionType.WorkingGroup],
  };
}

export function workGroupApplicationFactsOf(row: GroupFactsRow): WorkGroupApplicationFacts {
  return { isGroupAdmin: row.is_admin, groupFunction: row.workgroup_function };
}

export function deleteApplicationQuery(
  groupId: number,
  userId: number,
): SqlQuery<{ user_id: number }> {
  return {
    sql: 'delete from work_group_applications where group_id = ? and user_id = ? returning user_id',
    params: [groupId, userId],
  };
}

interface ApplicationRow {
  user: UserStub;
  message: string;
  /** PostgreSQL's text form of a timestamptz, as the raw driver returns it. */
  applied_at: string;
}

/** One page of the group's pending applications, oldest first: the order in which they wait. */
export function applicationsQuery(groupId: number, page: Page): SqlQuery<ApplicationRow> {
  return {
    sql: `select ${userStubJson('u')} as user, w.message, w.applied_at
            from work_group_applications w
            join users u on u.id = w.user_id
           where w.group_id = ?
           order by w.applied_at, w.user_id
           limit ? offset ?`,
    params: [groupId, page.limit, page.offset],
  };
}

export function applicationsOf(rows: ApplicationRow[]): WorkGroupApplicationList {
  return rows.map((row) => ({
    user: row.user,
    message: row.message,
    appliedAt: isoTimestamp(row.applied_at),
  }));
}

import {
  type Actor,
  type EntityManager,
  mayDeclineWorkGroupApplication,
  RegionType,
  type WorkGroupFunction,
} from '@foodshare/domain';
import type {
  WorkGroupApplicationDeclined,
  WorkGroupApplicationList,
  UserStub,
} from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import type { Page } from '../../shared/page-query.ts';

interface GroupFactsRow {
  workgroup_function: WorkGroupFunction | null;
  is_admin: boolean;
}

/**
 * 404 unless the id names a working group (a region of another type has no applications),
 * 403 unless the caller may decide on its applications (docs/domain.md §3.4).
 */
async function requireApplicationDecider(
  em: EntityManager,
  actor: Actor,
  groupId: number,
): Promise<void> {
  const rows = await em.execute<GroupFactsRow[]>(
    `select r.workgroup_function,
            exists (select 1 from region_admins a where a.region_id = r.id and a.user_id = ?) as is_admin
       from regions r
      where r.id = ? and r.type = ?`,
    [actor.id, groupId, RegionType.WorkingGroup],
  );
  const group = rows[0];
  if (!group) throw Problem.notFound('There is no working group with this id.');
  const facts = { isGroupAdmin: group.is_admin, groupFunction: group.workgroup_function };
  if (!mayDeclineWorkGroupApplication(actor, facts)) {
    throw Problem.forbidden(
      'WORK_GROUP_APPLICATIONS_FORBIDDEN',
      'Only orga, or an admin of a working group without a restricted function, decides on its applications.',
    );
  }
}

/** Deletes the pending application; none pending is still a success (idempotent). */
export async function declineApplication(
  em: EntityManager,
  actor: Actor,
  groupId: number,
  userId: number,
): Promise<WorkGroupApplicationDeclined> {
  await requireApplicationDecider(em, actor, groupId);
  const deleted = await em.execute<{ user_id: number }[]>(
    'delete from work_group_applications where group_id = ? and user_id = ? returning user_id',
    [groupId, userId],
  );
  return { groupId, userId, declined: deleted.length > 0 };
}

interface ApplicationRow {
  user: UserStub;
  message: string;
  /** PostgreSQL's text form of a timestamptz, as the raw driver returns it. */
  applied_at: string;
}

/** One page of the pending applications, oldest first: the order in which they wait. */
export async function listApplications(
  em: EntityManager,
  actor: Actor,
  groupId: number,
  page: Page,
): Promise<WorkGroupApplicationList> {
  await requireApplicationDecider(em, actor, groupId);
  const rows = await em.execute<ApplicationRow[]>(
    `select json_build_object(
              'id', u.id,
              'name', u.first_name,
              'avatar', case when u.avatar_upload_id is null then null
                             else '/api/uploads/' || u.avatar_upload_id end,
              'isSleeping', u.sleeping) as user,
            w.message, w.applied_at
       from work_group_applications w
       join users u on u.id = w.user_id
      where w.group_id = ?
      order by w.applied_at, w.user_id
      limit ? offset ?`,
    [groupId, page.limit, page.offset],
  );
  return rows.map((row) => ({
    user: row.user,
    message: row.message,
    appliedAt: new Date(row.applied_at).toISOString(),
  }));
}

import {
  type Actor,
  type EntityManager,
  mayDeclineWorkGroupApplication,
  type WorkGroupApplicationFacts,
  runSql,
} from '@foodshare/domain';
import type { WorkGroupApplicationDeclined, WorkGroupApplicationList } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import type { Page } from '../../shared/page-query.ts';
import {
  applicationsOf,
  applicationsQuery,
  deleteApplicationQuery,
  groupFactsQuery,
  workGroupApplicationFactsOf,
} from './work-groups.sql.ts';

/**
 * 404 unless the id names a working group (a region of another type has no applications), 403
 * unless the caller may decide on its applications (docs/domain.md §3.4).
 */
async function requireApplicationDecider(
  em: EntityManager,
  actor: Actor,
  groupId: number,
): Promise<void> {
  const rows = await runSql(em, groupFactsQuery(actor.id, groupId));
  const [row] = rows;
  checkApplicationDecider(actor, row ? workGroupApplicationFactsOf(row) : null);
}

function checkApplicationDecider(actor: Actor, facts: WorkGroupApplicationFacts | null): void {
  if (!facts) throw Problem.notFound('There is no working group with this id.');
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
  const deleted = await runSql(em, deleteApplicationQuery(groupId, userId));
  return { groupId, userId, declined: deleted.length > 0 };
}

/**
 * One page of the pending applications, oldest first: the order in which they wait. The page is
 * read only for a decider.
 */
export async function listApplications(
  em: EntityManager,
  actor: Actor,
  groupId: number,
  page: Page,
): Promise<WorkGroupApplicationList> {
  await requireApplicationDecider(em, actor, groupId);
  return applicationsOf(await runSql(em, applicationsQuery(groupId, page)));
}

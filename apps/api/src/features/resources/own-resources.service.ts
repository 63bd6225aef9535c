import { runSql } from '@foodshare/domain';
import type { EntityManager } from '@foodshare/domain';
import type { OwnResources } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import { ownResourcesOf, ownResourcesQuery } from './resources.sql.ts';

/**
 * The caller's resources, favourites first, then newest, in one query that also proves the
 * account is still active (no row at all: 401). `isUserActive` says whether the owner is still
 * an active member of the resource's region, where its lenders find it.
 */
export async function listOwnResources(em: EntityManager, userId: number): Promise<OwnResources> {
  const rows = await runSql(em, ownResourcesQuery(userId));
  if (rows.length === 0) throw Problem.accountInactive();
  return ownResourcesOf(rows);
}

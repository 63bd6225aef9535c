import { mayReadRegionAdminView, runSql } from '@foodshare/domain';
import type { Actor, EntityManager } from '@foodshare/domain';
import type { Region } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import { regionOf, regionQuery } from './regions.sql.ts';

/**
 * One query, only the returned columns, the admin ids aggregated in SQL. The platform's own client reads a missing reference as 0 and a missing text as
 * empty, so that is how they go out.
 */
export async function readRegion(
  em: EntityManager,
  actor: Actor,
  regionId: number,
): Promise<Region> {
  // Decided by role alone, before the lookup: only orga learns which regions exist.
  if (!mayReadRegionAdminView(actor)) {
    throw Problem.forbidden('REGION_ADMIN_VIEW_FORBIDDEN', 'Only orga reads this view.');
  }
  const [row] = await runSql(em, regionQuery(regionId));
  if (!row) throw Problem.notFound('There is no region with this id.');
  return regionOf(row);
}

import { mayReadRegionAdminView } from '@foodshare/domain';
import type { EntityManager } from '@foodshare/domain';
import type { Region } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import { regionOf, regionQuery } from './regions.sql.ts';
import { type Caller, runSqlAsActor } from '../../shared/as-actor.ts';

/**
 * One query, only the returned columns, the admin ids aggregated in SQL, and the caller's account
 * read in the same statement (one region row by primary key: nothing a refused caller would make
 * expensive). The platform's own client reads a missing reference as 0 and a missing text as
 * empty, so that is how they go out.
 */
export async function readRegion(
  em: EntityManager,
  caller: Caller,
  regionId: number,
): Promise<Region> {
  const { actor, rows } = await runSqlAsActor(em, caller, regionQuery(regionId));
  // Decided by role alone, before the lookup: only orga learns which regions exist.
  if (!mayReadRegionAdminView(actor)) {
    throw Problem.forbidden('REGION_ADMIN_VIEW_FORBIDDEN', 'Only orga reads this view.');
  }
  const [row] = rows;
  if (!row) throw Problem.notFound('There is no region with this id.');
  return regionOf(row);
}

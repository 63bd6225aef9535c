import {
  type Actor,
  type EntityManager,
  holdsRegionDuty,
  RegionType,
  type StoreFacts,
  WorkGroupFunction,
  runSql,
  type SqlQuery,
} from '@foodshare/domain';

interface StoreFactsRow {
  is_store_manager: boolean;
  delegate_admin_ids: number[] | null;
  ambassador_ids: number[];
}

const STORES_COORDINATION_GROUP = `g.parent_id = s.region_id and g.type = ${RegionType.WorkingGroup}
  and g.workgroup_function = ${WorkGroupFunction.StoresCoordination}`;

/**
 * What the store rules need to know about the caller and a store, in one query: whether they
 * manage it, and who holds the stores-coordination duty of its region (the admins of the
 * region's stores-coordination group, or its ambassadors when it has none). No row for an
 * unknown store.
 */
export function storeFactsQuery(actorId: number, storeId: number): SqlQuery<StoreFactsRow> {
  return {
    sql: `select exists (select 1 from store_team_memberships m
                          where m.store_id = s.id and m.user_id = ? and m.is_manager)
                   as is_store_manager,
                 case when exists (select 1 from regions g where ${STORES_COORDINATION_GROUP})
                      then array(select a.user_id from region_admins a
                                   join regions g on g.id = a.region_id
                                  where ${STORES_COORDINATION_GROUP})
                 end as delegate_admin_ids,
                 array(select a.user_id from region_admins a where a.region_id = s.region_id)
                   as ambassador_ids
            from stores s
           where s.id = ?`,
    params: [actorId, storeId],
  };
}

export function storeFactsOf(actor: Actor, row: StoreFactsRow): StoreFacts {
  const holders = {
    delegateAdminIds: row.delegate_admin_ids === null ? null : new Set(row.delegate_admin_ids),
    ambassadorIds: new Set(row.ambassador_ids),
  };
  return {
    isStoreManager: row.is_store_manager,
    holdsStoresCoordinationDuty: holdsRegionDuty(actor, holders),
  };
}

/** The facts of `storeFactsQuery` for the store rules, null for an unknown store. */
export async function loadStoreFacts(
  em: EntityManager,
  actor: Actor,
  storeId: number,
): Promise<StoreFacts | null> {
  const [row] = await runSql(em, storeFactsQuery(actor.id, storeId));
  return row ? storeFactsOf(actor, row) : null;
}

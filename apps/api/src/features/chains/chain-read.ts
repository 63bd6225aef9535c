import {
  type Actor,
  type EntityManager,
  maySeeChainDetails,
  WellKnownUnit,
} from '@foodshare/domain';
import type { StoreChainRead } from '@foodshare/schemas';

const group = WellKnownUnit.StoreChainGroup;

/**
 * The actor's relations to the chain aliased `c` that decide what they may see and change
 * (docs/domain.md §3.9 and §3.11): store-chain group member or admin, KAM of the chain. Takes
 * chainRelationParams(actor).
 */
export const CHAIN_RELATION_COLUMNS = `
  exists (select 1 from region_memberships m
           where m.region_id = ${group} and m.user_id = ? and m.active)
    or exists (select 1 from region_admins a
                where a.region_id = ${group} and a.user_id = ?) as is_group_member,
  exists (select 1 from region_admins a
           where a.region_id = ${group} and a.user_id = ?) as is_group_admin,
  exists (select 1 from store_chain_kams k
           where k.chain_id = c.id and k.user_id = ?) as is_kam`;

export const chainRelationParams = (actor: Actor): number[] => [
  actor.id,
  actor.id,
  actor.id,
  actor.id,
];

export interface ChainRelations {
  is_group_member: boolean;
  is_group_admin: boolean;
  is_kam: boolean;
}

export interface ChainRow extends ChainRelations {
  id: number;
  name: string;
  status: number;
  headquarters_zip: string | null;
  headquarters_city: string | null;
  headquarters_country: string | null;
  allow_press: boolean;
  forum_thread_id: number | null;
  notes: string | null;
  common_store_information: string | null;
  estimated_store_count: number;
  /** PostgreSQL's text form of a timestamptz. */
  modification_date: string;
  region_id: number | null;
  store_count: number;
  kam_ids: number[];
}

/**
 * The chain, its store count, its KAMs and the actor's relations to it (store-chain group
 * member or admin, KAM) in one query; undefined for an unknown chain.
 */
export async function loadChain(
  em: EntityManager,
  actor: Actor,
  chainId: number,
): Promise<ChainRow | undefined> {
  const rows = await em.execute<ChainRow[]>(
    `select c.id, c.name, c.status, c.headquarters_zip, c.headquarters_city,
            c.headquarters_country, c.allow_press, c.forum_thread_id, c.notes,
            c.common_store_information, c.estimated_store_count, c.modification_date,
            c.region_id,
            (select count(*)::int from stores s where s.chain_id = c.id) as store_count,
            array(select k.user_id from store_chain_kams k where k.chain_id = c.id
                   order by k.user_id) as kam_ids,${CHAIN_RELATION_COLUMNS}
       from store_chains c
      where c.id = ?`,
    [...chainRelationParams(actor), chainId],
  );
  return rows[0];
}

/** The chain as the actor may see it: the chain team's working material is null for others. */
export function toChainRead(actor: Actor, row: ChainRow): StoreChainRead {
  const details = maySeeChainDetails(actor, {
    isStoreChainGroupMember: row.is_group_member,
    isChainKam: row.is_kam,
  });
  return {
    chain: {
      id: row.id,
      name: row.name,
      status: row.status,
      headquartersZip: row.headquarters_zip ?? '',
      headquartersCity: row.headquarters_city ?? '',
      headquartersCountry: row.headquarters_country ?? '',
      allowPress: row.allow_press,
      forumThread: details ? row.forum_thread_id : null,
      notes: details ? row.notes : null,
      commonStoreInformation: row.common_store_information ?? '',
      estimatedStoreCount: details ? row.estimated_store_count : null,
      modificationDate: new Date(row.modification_date).toISOString(),
      regionId: details ? row.region_id : null,
    },
    storeCount: details ? row.store_count : null,
  };
}

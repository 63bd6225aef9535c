import { WellKnownUnit, type SqlQuery } from '@foodshare/domain';
import type { StoreChainKams, StoreChainRead, StoreChainUpdateBody } from '@foodshare/schemas';
import { isoTimestamp, userStubJson } from '../../shared/sql.ts';

const group = WellKnownUnit.StoreChainGroup;

/**
 * The actor's relations to the chain aliased `c` that decide what they may see and change
 * (docs/domain.md §3.9 and §3.11): store-chain group member or admin, KAM of the chain. Takes
 * relationParams(userId).
 */
const RELATION_COLUMNS = `
  exists (select 1 from region_memberships m
           where m.region_id = ${group} and m.user_id = ? and m.active)
    or exists (select 1 from region_admins a
                where a.region_id = ${group} and a.user_id = ?) as is_group_member,
  exists (select 1 from region_admins a
           where a.region_id = ${group} and a.user_id = ?) as is_group_admin,
  exists (select 1 from store_chain_kams k
           where k.chain_id = c.id and k.user_id = ?) as is_kam`;

const relationParams = (userId: number): number[] => [userId, userId, userId, userId];

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

/** The chain, its store count, its KAMs and the user's relations to it; no row: no chain. */
export function chainQuery(userId: number, chainId: number): SqlQuery<ChainRow> {
  return {
    sql: `select c.id, c.name, c.status, c.headquarters_zip, c.headquarters_city,
                 c.headquarters_country, c.allow_press, c.forum_thread_id, c.notes,
                 c.common_store_information, c.estimated_store_count, c.modification_date,
                 c.region_id,
                 (select count(*)::int from stores s where s.chain_id = c.id) as store_count,
                 array(select k.user_id from store_chain_kams k where k.chain_id = c.id
                        order by k.user_id) as kam_ids,${RELATION_COLUMNS}
            from store_chains c
           where c.id = ?`,
    params: [...relationParams(userId), chainId],
  };
}

/** The chain as the actor may see it: without `details`, the team's working material is null. */
export function chainReadOf(row: ChainRow, details: boolean): StoreChainRead {
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
      modificationDate: isoTimestamp(row.modification_date),
      regionId: details ? row.region_id : null,
    },
    storeCount: details ? row.store_count : null,
  };
}

/** The chain's KAMs as user stubs, by id, and the user's relations; no row: no chain. */
export function chainKamsQuery(
  userId: number,
  chainId: number,
): SqlQuery<ChainRelations & { kams: StoreChainKams }> {
  return {
    sql: `select ${RELATION_COLUMNS},
                 coalesce((select json_agg(${userStubJson('u')} order by u.id)
                             from store_chain_kams k join users u on u.id = k.user_id
                            where k.chain_id = c.id), '[]'::json) as kams
            from store_chains c
           where c.id = ?`,
    params: [...relationParams(userId), chainId],
  };
}

export type ChainScalarKey = Exclude<keyof StoreChainUpdateBody, 'kams'>;

/** The column of each field; the only names ever put into the SQL text. */
export const CHAIN_COLUMNS: Readonly<Record<ChainScalarKey, keyof ChainRow>> = {
  name: 'name',
  status: 'status',
  headquartersZip: 'headquarters_zip',
  headquartersCity: 'headquarters_city',
  headquartersCountry: 'headquarters_country',
  allowPress: 'allow_press',
  forumThread: 'forum_thread_id',
  notes: 'notes',
  commonStoreInformation: 'common_store_information',
  estimatedStoreCount: 'estimated_store_count',
};

/** `{1,2,3}`: an int[] literal of ids the schema already checked to be integers. */
function intArray(ids: readonly number[]): string {
  return `{${ids.map((id) => Math.trunc(id)).join(',')}}`;
}

/** Locks the chain row for the transaction that changes it; no row: no chain. */
export function lockChainQuery(chainId: number): SqlQuery<{ id: number }> {
  return { sql: 'select id from store_chains where id = ? for update', params: [chainId] };
}

interface ReferencesRow {
  non_members: number[];
  thread_ok: boolean;
}

/**
 * Which of `kams` are not members of the store-chain group, and whether `forumThread` is a thread
 * of that group's forum.
 */
export function chainReferencesQuery(
  kams: readonly number[],
  forumThread: number | undefined,
): SqlQuery<ReferencesRow> {
  return {
    sql: `select array(select u.id from unnest(?::int[]) as u(id)
                        where not exists (select 1 from region_memberships m
                                           where m.region_id = ${group} and m.user_id = u.id
                                             and m.active)
                          and not exists (select 1 from region_admins a
                                           where a.region_id = ${group} and a.user_id = u.id)
                        order by u.id) as non_members,
                 exists (select 1 from forum_threads t where t.id = ? and t.region_id = ${group})
                   as thread_ok`,
    params: [intArray(kams), forumThread ?? 0],
  };
}

/** Sets the `changed` fields from `body` and stamps the modification date, which it returns. */
export function updateChainQuery(
  chainId: number,
  changed: readonly ChainScalarKey[],
  body: StoreChainUpdateBody,
): SqlQuery<{ modification_date: string }> {
  const assignments = changed.map((key) => `${CHAIN_COLUMNS[key]} = ?`);
  return {
    sql: `update store_chains set ${[...assignments, 'modification_date = now()'].join(', ')}
           where id = ?
          returning modification_date`,
    params: [...changed.map((key) => body[key]), chainId],
  };
}

export function deleteKamsQuery(chainId: number): SqlQuery {
  return { sql: 'delete from store_chain_kams where chain_id = ?', params: [chainId] };
}

export function insertKamsQuery(chainId: number, kams: readonly number[]): SqlQuery {
  return {
    sql: 'insert into store_chain_kams (chain_id, user_id) select ?, unnest(?::int[])',
    params: [chainId, intArray(kams)],
  };
}

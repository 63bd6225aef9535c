import { LockMode, ref } from '@mikro-orm/core';
import { RegionEntity } from '../entities/region.entity.ts';
import type { WorkGroupFunction } from '../enums.ts';
import type { EntityManager } from '../db/orm.ts';
import { AccountError } from './account-errors.ts';
import { requireRegion } from './lookups.ts';
import { assertWorkGroupFunction, requireRegionName } from './regions.service.ts';

/** The fields of a region that may change without moving members or stores between types. */
export interface UpdateRegionInput {
  name?: string;
  /** null: the region becomes a top-level one. */
  parentId?: number | null;
  /** Working groups only; null removes the function. */
  workgroupFunction?: WorkGroupFunction | null;
}

// A region's own settings row goes with it; every other row that names the region depends on it.
const OWNED_BY_REGION = new Set(['region_options']);

async function lockRegion(em: EntityManager, regionId: number): Promise<RegionEntity> {
  const region = Number.isSafeInteger(regionId)
    ? await em.findOne(RegionEntity, { id: regionId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
    : null;
  if (!region) throw new AccountError('REGION_NOT_FOUND', `No region has the id ${regionId}`);
  return region;
}

/** Refuses a parent that is the region itself or lies below it: the tree would become a loop. */
async function assertNotBelow(
  em: EntityManager,
  regionId: number,
  parentId: number,
): Promise<void> {
  const rows = await em.execute<{ id: number }[]>(
    `with recursive up(id, parent_id) as (
       select id, parent_id from regions where id = ?
       union select r.id, r.parent_id from regions r join up on r.id = up.parent_id
     ) select id from up where id = ?`,
    [parentId, regionId],
  );
  if (rows.length > 0) {
    throw new AccountError(
      'INVALID_INPUT',
      `Region ${parentId} is region ${regionId} or lies below it, so it cannot be its parent`,
    );
  }
}

/** Changes a region's name, parent or working-group function, validated as when it was created. */
export async function updateRegion(
  em: EntityManager,
  regionId: number,
  input: UpdateRegionInput,
): Promise<RegionEntity> {
  return em.transactional(async (tx) => {
    const region = await lockRegion(tx, regionId);
    if (input.name !== undefined) region.name = requireRegionName(input.name);
    if (input.workgroupFunction !== undefined) {
      assertWorkGroupFunction(region.type, input.workgroupFunction);
      region.workgroupFunction = input.workgroupFunction;
    }
    if (input.parentId !== undefined) {
      if (input.parentId === null) {
        region.parent = null;
      } else {
        const parent = await requireRegion(tx, input.parentId);
        await assertNotBelow(tx, region.id, parent.id);
        region.parent = ref(parent);
      }
    }
    return region;
  });
}

export interface RegionDependent {
  /** The table and column that name the region. */
  table: string;
  column: string;
  rows: number;
}

/**
 * Every row that names the region, found through the database's own foreign keys, so that a
 * table added later is counted without a change here.
 */
export async function regionDependents(
  em: EntityManager,
  regionId: number,
): Promise<RegionDependent[]> {
  const references = await em.execute<{ table: string; column: string }[]>(
    `select c.conrelid::regclass::text as "table", a.attname as "column"
       from pg_constraint c
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
      where c.contype = 'f' and c.confrelid = 'regions'::regclass
      order by 1, 2`,
  );
  const dependents: RegionDependent[] = [];
  for (const { table, column } of references) {
    if (OWNED_BY_REGION.has(table)) continue;
    // Both names come from the catalog; regclass::text is quoted where needed, the column here.
    const [count] = await em.execute<{ rows: number }[]>(
      `select count(*)::int as rows from ${table} where "${column.replaceAll('"', '""')}" = ?`,
      [regionId],
    );
    if (count && count.rows > 0) dependents.push({ table, column, rows: count.rows });
  }
  return dependents;
}

/**
 * Deletes a region that nothing depends on: no sub-regions, members, admins, stores, forum threads
 * and so on. Otherwise it refuses with REGION_IN_USE and changes nothing. The row lock keeps
 * others from adding a dependent between the count and the delete (a new reference waits for it).
 */
export async function deleteRegion(
  em: EntityManager,
  regionId: number,
): Promise<{ id: number; name: string }> {
  return em.transactional(async (tx) => {
    const region = await lockRegion(tx, regionId);
    const dependents = await regionDependents(tx, region.id);
    if (dependents.length > 0) {
      const listed = dependents
        .map((dependent) => `${dependent.rows} in ${dependent.table}.${dependent.column}`)
        .join(', ');
      throw new AccountError(
        'REGION_IN_USE',
        `Region ${region.id} (${region.name}) is still in use: ${listed}`,
      );
    }
    const deleted = { id: region.id, name: region.name };
    tx.remove(region);
    return deleted;
  });
}

import type { RegionEntity, RegionType, WorkGroupFunction } from '@foodshare/domain';
import { regionTypeName } from './region-names.ts';

export interface RegionSummary {
  id: number;
  name: string;
  type: RegionType;
  parentId: number | null;
  workgroupFunction: WorkGroupFunction | null;
}

export function summarizeRegion(region: RegionEntity): RegionSummary {
  return {
    id: region.id,
    name: region.name,
    type: region.type,
    parentId: region.parent?.id ?? null,
    workgroupFunction: region.workgroupFunction ?? null,
  };
}

/** One line per region, as `regions list`, `show` and `update` print them. */
export function describeRegion(region: RegionSummary): string {
  return (
    `${region.id}\t${region.name}\t${regionTypeName(region.type)}` +
    (region.parentId === null ? '' : `\tparent ${region.parentId}`)
  );
}

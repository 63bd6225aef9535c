import {
  RegionAdminEntity,
  RegionEntity,
  RegionMembershipEntity,
  requireRegion,
  type EntityManager,
} from '@foodshare/domain';
import type { Command } from 'commander';
import { withEntityManager } from '../../cli-context.ts';
import {
  leafCommand,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../../cli-runtime.ts';
import { describeRegion, summarizeRegion, type RegionSummary } from './region-summary.ts';

export interface RegionDetails extends RegionSummary {
  /** Active members; a country or federal state has none of its own. */
  members: number;
  children: number;
  admins: { id: number; email: string }[];
}

export async function showRegionCommand(
  em: EntityManager,
  regionId: number,
): Promise<RegionDetails> {
  const region = await requireRegion(em, regionId);
  const [members, children, admins] = await Promise.all([
    em.count(RegionMembershipEntity, { region: region.id, active: true }),
    em.count(RegionEntity, { parent: region.id }),
    em.find(
      RegionAdminEntity,
      { region: region.id },
      { populate: ['user'], orderBy: { user: 'asc' } },
    ),
  ]);
  return {
    ...summarizeRegion(region),
    members,
    children,
    admins: admins.map((admin) => ({ id: admin.user.id, email: admin.user.getEntity().email })),
  };
}

/** `regions show`. */
export function showRegionLeaf(runtime: CliRuntime): Command {
  return leafCommand('show', 'show one region: its members, sub-regions and admins')
    .argument('<regionId>', 'id of the region or working group', parsePositiveInteger)
    .action((regionId: number, flags: JsonFlag) =>
      runCommand(
        runtime,
        flags,
        () => withEntityManager(runtime.env, (em) => showRegionCommand(em, regionId)),
        (region) =>
          [
            describeRegion(region),
            `  ${region.members} member(s), ${region.children} sub-region(s)`,
            `  admins: ${region.admins.length > 0 ? region.admins.map((admin) => `${admin.id} <${admin.email}>`).join(', ') : 'none'}`,
          ].join('\n'),
      ),
    );
}

import {
  deleteRegion,
  RegionAdminEntity,
  RegionEntity,
  RegionMembershipEntity,
  requireRegion,
  updateRegion,
  type EntityManager,
  type RegionType,
  type UpdateRegionInput,
  type WorkGroupFunction,
} from '@foodshare/domain';
import type { Command } from 'commander';
import { Option } from 'commander';
import { CliError, withEntityManager } from '../cli-context.ts';
import {
  leafCommand,
  parseCode,
  parseLimit,
  parseOffset,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../cli-runtime.ts';
import {
  REGION_TYPE_NAMES,
  regionTypeName,
  summarizeRegion,
  WORK_GROUP_FUNCTION_NAMES,
  type RegionSummary,
} from './regions.command.ts';

export interface ListRegionsOptions {
  limit: number;
  offset: number;
  parentId?: number;
  type?: RegionType;
}

export async function listRegionsCommand(
  em: EntityManager,
  options: ListRegionsOptions,
): Promise<RegionSummary[]> {
  const regions = await em.find(
    RegionEntity,
    {
      ...(options.parentId === undefined ? {} : { parent: options.parentId }),
      ...(options.type === undefined ? {} : { type: options.type }),
    },
    { orderBy: { id: 'asc' }, limit: options.limit, offset: options.offset },
  );
  return regions.map(summarizeRegion);
}

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

export async function updateRegionCommand(
  em: EntityManager,
  regionId: number,
  update: UpdateRegionInput,
): Promise<RegionSummary> {
  return summarizeRegion(await updateRegion(em, regionId, update));
}

export function deleteRegionCommand(
  em: EntityManager,
  regionId: number,
): Promise<{ id: number; name: string }> {
  return deleteRegion(em, regionId);
}

function describeRegion(region: RegionSummary): string {
  return (
    `${region.id}\t${region.name}\t${regionTypeName(region.type)}` +
    (region.parentId === null ? '' : `\tparent ${region.parentId}`)
  );
}

interface ListRegionsFlags extends JsonFlag {
  limit: number;
  offset: number;
  parent?: number;
  type?: RegionType;
}

interface UpdateRegionFlags extends JsonFlag {
  name?: string;
  parent?: number;
  topLevel?: boolean;
  function?: WorkGroupFunction;
  removeFunction?: boolean;
}

function updateFrom(flags: UpdateRegionFlags): UpdateRegionInput {
  return {
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.parent === undefined ? {} : { parentId: flags.parent }),
    ...(flags.topLevel ? { parentId: null } : {}),
    ...(flags.function === undefined ? {} : { workgroupFunction: flags.function }),
    ...(flags.removeFunction ? { workgroupFunction: null } : {}),
  };
}

/** regions list, show, update and delete, added to the `regions` command. */
export function addRegionAdminCommands(regions: Command, runtime: CliRuntime): Command {
  regions.addCommand(
    leafCommand('list', 'list regions and working groups by id, a page at a time')
      .addOption(
        new Option('--limit <n>', 'regions per page, 1 to 1000').argParser(parseLimit).default(100),
      )
      .addOption(new Option('--offset <n>', 'regions to skip').argParser(parseOffset).default(0))
      .option(
        '--parent <regionId>',
        'only the regions directly below this one',
        parsePositiveInteger,
      )
      .option(
        '--type <type>',
        `only this type: ${Object.keys(REGION_TYPE_NAMES).join(', ')}, or the type code`,
        parseCode('region type', REGION_TYPE_NAMES),
      )
      .action((flags: ListRegionsFlags) =>
        runCommand(
          runtime,
          flags,
          () =>
            withEntityManager(runtime.env, (em) =>
              listRegionsCommand(em, {
                limit: flags.limit,
                offset: flags.offset,
                ...(flags.parent === undefined ? {} : { parentId: flags.parent }),
                ...(flags.type === undefined ? {} : { type: flags.type }),
              }),
            ),
          (list) => (list.length === 0 ? 'No regions.' : list.map(describeRegion).join('\n')),
        ),
      ),
  );

  regions.addCommand(
    leafCommand('show', 'show one region: its members, sub-regions and admins')
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
      ),
  );

  regions.addCommand(
    leafCommand('update', "change a region's name, parent or working-group function")
      .argument('<regionId>', 'id of the region or working group', parsePositiveInteger)
      .option('--name <name>', 'new name')
      .addOption(
        new Option('--parent <regionId>', 'new region above it')
          .argParser(parsePositiveInteger)
          .conflicts('topLevel'),
      )
      .option('--top-level', 'no region above it')
      .addOption(
        new Option(
          '--function <function>',
          `function of a working group: ${Object.keys(WORK_GROUP_FUNCTION_NAMES).join(', ')}, or 1-12`,
        )
          .argParser(parseCode('working-group function', WORK_GROUP_FUNCTION_NAMES))
          .conflicts('removeFunction'),
      )
      .option('--remove-function', 'remove the function of a working group')
      .action((regionId: number, flags: UpdateRegionFlags) =>
        runCommand(
          runtime,
          flags,
          () =>
            withEntityManager(runtime.env, (em) =>
              updateRegionCommand(em, regionId, updateFrom(flags)),
            ),
          (region) => `Updated region ${describeRegion(region)}`,
        ),
      ),
  );

  regions.addCommand(
    leafCommand(
      'delete',
      'delete a region that nothing depends on (no sub-regions, members, admins, stores, ...)',
    )
      .argument('<regionId>', 'id of the region or working group', parsePositiveInteger)
      .option('--yes', 'confirm: the region cannot be restored')
      .action((regionId: number, flags: JsonFlag & { yes?: boolean }) =>
        runCommand(
          runtime,
          flags,
          async () => {
            if (!flags.yes) {
              throw new CliError(
                'INVALID_INPUT',
                `Deleting region ${regionId} cannot be undone: add --yes.`,
              );
            }
            return withEntityManager(runtime.env, (em) => deleteRegionCommand(em, regionId));
          },
          (region) => `Deleted region ${region.id} "${region.name}".`,
        ),
      ),
  );

  return regions;
}

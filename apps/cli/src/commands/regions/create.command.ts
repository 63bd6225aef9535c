import {
  createRegion,
  type EntityManager,
  type RegionType,
  type WorkGroupFunction,
} from '@foodshare/domain';
import type { Command } from 'commander';
import { withEntityManager } from '../../cli-context.ts';
import {
  leafCommand,
  parseCode,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../../cli-runtime.ts';
import { REGION_TYPE_NAMES, regionTypeName, WORK_GROUP_FUNCTION_NAMES } from './region-names.ts';
import { summarizeRegion, type RegionSummary } from './region-summary.ts';

export interface CreateRegionOptions {
  name: string;
  type: RegionType;
  parentId?: number;
  id?: number;
  workgroupFunction?: WorkGroupFunction;
}

export async function createRegionCommand(
  em: EntityManager,
  options: CreateRegionOptions,
): Promise<RegionSummary> {
  const region = await createRegion(em, {
    name: options.name,
    type: options.type,
    parentId: options.parentId ?? null,
    workgroupFunction: options.workgroupFunction ?? null,
    ...(options.id === undefined ? {} : { id: options.id }),
  });
  return summarizeRegion(region);
}

interface CreateRegionFlags extends JsonFlag {
  name: string;
  type: RegionType;
  parent?: number;
  id?: number;
  function?: WorkGroupFunction;
}

/** `regions create`. */
export function createRegionLeaf(runtime: CliRuntime): Command {
  return leafCommand('create', 'create a region or a working group')
    .requiredOption('--name <name>', 'name of the region')
    .requiredOption(
      '--type <type>',
      `${Object.keys(REGION_TYPE_NAMES).join(', ')}, or the type code`,
      parseCode('region type', REGION_TYPE_NAMES),
    )
    .option('--parent <regionId>', 'the region above it', parsePositiveInteger)
    .option(
      '--id <id>',
      'an explicit id, e.g. a well-known unit (392, 332, 387, 341, 6704)',
      parsePositiveInteger,
    )
    .option(
      '--function <function>',
      `function of a working group: ${Object.keys(WORK_GROUP_FUNCTION_NAMES).join(', ')}, or 1-12`,
      parseCode('working-group function', WORK_GROUP_FUNCTION_NAMES),
    )
    .action((flags: CreateRegionFlags) =>
      runCommand(
        runtime,
        flags,
        () =>
          withEntityManager(runtime.env, (em) =>
            createRegionCommand(em, {
              name: flags.name,
              type: flags.type,
              ...(flags.parent === undefined ? {} : { parentId: flags.parent }),
              ...(flags.id === undefined ? {} : { id: flags.id }),
              ...(flags.function === undefined ? {} : { workgroupFunction: flags.function }),
            }),
          ),
        (region) =>
          `Created region ${region.id} "${region.name}" (${regionTypeName(region.type)})` +
          (region.parentId === null ? '.' : ` under region ${region.parentId}.`),
      ),
    );
}

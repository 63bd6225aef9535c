import {
  updateRegion,
  type EntityManager,
  type UpdateRegionInput,
  type WorkGroupFunction,
} from '@foodshare/domain';
import { Option, type Command } from 'commander';
import { withEntityManager } from '../../cli-context.ts';
import {
  leafCommand,
  parseCode,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../../cli-runtime.ts';
import { WORK_GROUP_FUNCTION_NAMES } from './region-names.ts';
import { describeRegion, summarizeRegion, type RegionSummary } from './region-summary.ts';

export async function updateRegionCommand(
  em: EntityManager,
  regionId: number,
  update: UpdateRegionInput,
): Promise<RegionSummary> {
  return summarizeRegion(await updateRegion(em, regionId, update));
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

/** `regions update`. */
export function updateRegionLeaf(runtime: CliRuntime): Command {
  return leafCommand('update', "change a region's name, parent or working-group function")
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
    );
}

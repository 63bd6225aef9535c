import {
  createRegion,
  RegionType,
  WorkGroupFunction,
  type EntityManager,
  type RegionEntity,
} from '@foodshare/domain';
import { Command } from 'commander';
import { withEntityManager } from '../cli-context.ts';
import {
  leafCommand,
  parseCode,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../cli-runtime.ts';

export const REGION_TYPE_NAMES: Readonly<Record<string, RegionType>> = {
  city: RegionType.City,
  district: RegionType.District,
  region: RegionType.Region,
  'federal-state': RegionType.FederalState,
  country: RegionType.Country,
  'working-group': RegionType.WorkingGroup,
  'big-city': RegionType.BigCity,
  'part-of-town': RegionType.PartOfTown,
};

export function regionTypeName(type: RegionType): string {
  return (
    Object.keys(REGION_TYPE_NAMES).find((name) => REGION_TYPE_NAMES[name] === type) ??
    `type ${type}`
  );
}

export const WORK_GROUP_FUNCTION_NAMES: Readonly<Record<string, WorkGroupFunction>> = {
  welcome: WorkGroupFunction.Welcome,
  voting: WorkGroupFunction.Voting,
  'food-share-points': WorkGroupFunction.FoodSharePoints,
  'stores-coordination': WorkGroupFunction.StoresCoordination,
  report: WorkGroupFunction.Report,
  mediation: WorkGroupFunction.Mediation,
  arbitration: WorkGroupFunction.Arbitration,
  'foodsaver-management': WorkGroupFunction.FoodsaverManagement,
  pr: WorkGroupFunction.PublicRelations,
  moderation: WorkGroupFunction.Moderation,
  board: WorkGroupFunction.Board,
  election: WorkGroupFunction.Election,
};

export interface CreateRegionOptions {
  name: string;
  type: RegionType;
  parentId?: number;
  id?: number;
  workgroupFunction?: WorkGroupFunction;
}

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

export function regionsCommands(runtime: CliRuntime): Command {
  const regions = new Command('regions').description(
    'create, list, show, update and delete regions and working groups',
  );

  regions.addCommand(
    leafCommand('create', 'create a region or a working group')
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
      ),
  );

  return regions;
}

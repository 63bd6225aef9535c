import { RegionEntity, type EntityManager, type RegionType } from '@foodshare/domain';
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
import { listText, withPageOptions, type PageFlags } from '../../list-pages.ts';
import { REGION_TYPE_NAMES } from './region-names.ts';
import { describeRegion, summarizeRegion, type RegionSummary } from './region-summary.ts';

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

interface ListRegionsFlags extends JsonFlag, PageFlags {
  parent?: number;
  type?: RegionType;
}

/** `regions list`. */
export function listRegionsLeaf(runtime: CliRuntime): Command {
  return withPageOptions(
    leafCommand('list', 'list regions and working groups by id, a page at a time'),
    'regions',
  )
    .option('--parent <regionId>', 'only the regions directly below this one', parsePositiveInteger)
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
        (list) => listText(list, 'No regions.', describeRegion),
      ),
    );
}

import { deleteRegion, type EntityManager } from '@foodshare/domain';
import type { Command } from 'commander';
import { CliError, withEntityManager } from '../../cli-context.ts';
import {
  leafCommand,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../../cli-runtime.ts';

export function deleteRegionCommand(
  em: EntityManager,
  regionId: number,
): Promise<{ id: number; name: string }> {
  return deleteRegion(em, regionId);
}

/** `regions delete`. */
export function deleteRegionLeaf(runtime: CliRuntime): Command {
  return leafCommand(
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
    );
}

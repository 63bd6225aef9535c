import { Command } from 'commander';
import type { CliRuntime } from '../../cli-runtime.ts';
import { createRegionLeaf } from './create.command.ts';
import { deleteRegionLeaf } from './delete.command.ts';
import { listRegionsLeaf } from './list.command.ts';
import { showRegionLeaf } from './show.command.ts';
import { updateRegionLeaf } from './update.command.ts';

/** `regions` and its subcommands, in the order `--help` lists them. */
export function regionsCommands(runtime: CliRuntime): Command {
  return new Command('regions')
    .description('create, list, show, update and delete regions and working groups')
    .addCommand(createRegionLeaf(runtime))
    .addCommand(listRegionsLeaf(runtime))
    .addCommand(showRegionLeaf(runtime))
    .addCommand(updateRegionLeaf(runtime))
    .addCommand(deleteRegionLeaf(runtime));
}

import { Command } from 'commander';
import type { CliRuntime } from '../../cli-runtime.ts';
import { createClientLeaf } from './create.command.ts';
import { activateClientLeaf, deactivateClientLeaf, deleteClientLeaf } from './lifecycle.command.ts';
import { listClientsLeaf } from './list.command.ts';
import { endPreviousSecretLeaf, rotateSecretLeaf } from './secrets.command.ts';
import { setPostLogoutUrisLeaf, setProtocolOptionsLeaf } from './set-options.command.ts';
import { showClientLeaf } from './show.command.ts';
import { updateClientLeaf } from './update.command.ts';

/** `clients` and its subcommands, in the order `--help` lists them. */
export function clientsCommands(runtime: CliRuntime): Command {
  return new Command('clients')
    .description('OAuth clients of the authorization server')
    .addCommand(createClientLeaf(runtime))
    .addCommand(setPostLogoutUrisLeaf(runtime))
    .addCommand(setProtocolOptionsLeaf(runtime))
    .addCommand(listClientsLeaf(runtime))
    .addCommand(showClientLeaf(runtime))
    .addCommand(updateClientLeaf(runtime))
    .addCommand(activateClientLeaf(runtime))
    .addCommand(deactivateClientLeaf(runtime))
    .addCommand(deleteClientLeaf(runtime))
    .addCommand(rotateSecretLeaf(runtime))
    .addCommand(endPreviousSecretLeaf(runtime));
}

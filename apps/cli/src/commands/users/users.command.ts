import { Command } from 'commander';
import type { CliRuntime } from '../../cli-runtime.ts';
import { createUserLeaf } from './create.command.ts';
import { deactivateUserLeaf } from './deactivate.command.ts';
import { listUsersLeaf } from './list.command.ts';
import { resetPasswordLeaf } from './reset-password.command.ts';
import { setRoleLeaf } from './set-role.command.ts';
import { showUserLeaf } from './show.command.ts';
import { updateUserLeaf } from './update.command.ts';

/** `users` and its subcommands, in the order `--help` lists them. */
export function usersCommands(runtime: CliRuntime): Command {
  return new Command('users')
    .description(
      'create, list, show, update and deactivate users; roles, passwords. There is no delete: ' +
        'deleting would erase the reports about a user and unname their posts and store logs, so accounts are deactivated instead',
    )
    .addCommand(createUserLeaf(runtime))
    .addCommand(setRoleLeaf(runtime))
    .addCommand(listUsersLeaf(runtime))
    .addCommand(showUserLeaf(runtime))
    .addCommand(updateUserLeaf(runtime))
    .addCommand(deactivateUserLeaf(runtime))
    .addCommand(resetPasswordLeaf(runtime));
}

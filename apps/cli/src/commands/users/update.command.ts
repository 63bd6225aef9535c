import { updateUser, type EntityManager, type UpdateUserInput } from '@foodshare/domain';
import type { Command } from 'commander';
import { withEntityManager } from '../../cli-context.ts';
import {
  leafCommand,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../../cli-runtime.ts';
import { findUser, parseUserRef, type UserRef } from './user-ref.ts';
import { summarize, type UserSummary } from './user-summary.ts';

export async function updateUserCommand(
  em: EntityManager,
  ref: UserRef,
  update: UpdateUserInput,
): Promise<UserSummary> {
  return summarize(await updateUser(em, (await findUser(em, ref)).id, update));
}

interface UpdateUserFlags extends JsonFlag {
  firstName?: string;
  lastName?: string;
  email?: string;
  homeRegion?: number;
}

/** `users update`. */
export function updateUserLeaf(runtime: CliRuntime): Command {
  return leafCommand('update', "change a user's names, email address or home region")
    .argument('<user>', 'id or email address of the user', parseUserRef)
    .option('--first-name <name>', 'new first name')
    .option('--last-name <name>', 'new last name')
    .option('--email <email>', 'new email address, the login name (must be unused)')
    .option(
      '--home-region <regionId>',
      'new home region; the user also becomes a member (and stays one of the old)',
      parsePositiveInteger,
    )
    .action((ref: UserRef, flags: UpdateUserFlags) =>
      runCommand(
        runtime,
        flags,
        () =>
          withEntityManager(runtime.env, (em) =>
            updateUserCommand(em, ref, {
              ...(flags.firstName === undefined ? {} : { firstName: flags.firstName }),
              ...(flags.lastName === undefined ? {} : { lastName: flags.lastName }),
              ...(flags.email === undefined ? {} : { email: flags.email }),
              ...(flags.homeRegion === undefined ? {} : { homeRegionId: flags.homeRegion }),
            }),
          ),
        (user) =>
          `Updated user ${user.id} <${user.email}>: ${user.firstName} ${user.lastName}` +
          (user.homeRegionId === null ? '.' : `, home region ${user.homeRegionId}.`),
      ),
    );
}

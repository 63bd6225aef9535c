import {
  addAdmin,
  requireUserByEmail,
  type AddAdminResult,
  type EntityManager,
} from '@foodshare/domain';
import { Command } from 'commander';
import type { CliRuntime } from '../cli-runtime.ts';
import { userInRegionLeaf, type UserInRegion } from './user-region-command.ts';

export type AddAdminOptions = UserInRegion;

export interface AdminResult extends AddAdminResult {
  userId: number;
  email: string;
  regionId: number;
}

export async function addAdminCommand(
  em: EntityManager,
  options: AddAdminOptions,
): Promise<AdminResult> {
  const user = await requireUserByEmail(em, options.email);
  const result = await addAdmin(em, user.id, options.regionId);
  return { userId: user.id, email: user.email, regionId: options.regionId, ...result };
}

export function adminsCommands(runtime: CliRuntime): Command {
  const admins = new Command('admins').description(
    'ambassadors of regions and admins of working groups',
  );

  admins.addCommand(
    userInRegionLeaf(
      runtime,
      'add',
      'make a user an admin of a region or working group, and a member where it has members (idempotent)',
      addAdminCommand,
      (result) =>
        `User ${result.userId} <${result.email}> ` +
        (result.admin === 'added' ? 'is now an admin of' : 'was already an admin of') +
        ` region ${result.regionId}` +
        (result.membership === 'added' ? ', and a member.' : '.'),
    ),
  );

  return admins;
}

import { deactivateUser, type EntityManager } from '@foodshare/domain';
import type { Command } from 'commander';
import { withEntityManager } from '../../cli-context.ts';
import type { CliRuntime } from '../../cli-runtime.ts';
import { findUser, userCommand, type UserRef } from './user-ref.ts';

export async function deactivateUserCommand(
  em: EntityManager,
  ref: UserRef,
): Promise<{ id: number; email: string; changed: boolean }> {
  const { user, changed } = await deactivateUser(em, (await findUser(em, ref)).id);
  return { id: user.id, email: user.email, changed };
}

/** `users deactivate`. */
export function deactivateUserLeaf(runtime: CliRuntime): Command {
  return userCommand(
    runtime,
    'deactivate',
    'deactivate an account: it cannot sign in, its sessions and OAuth tokens stop working at once',
    (ref) => withEntityManager(runtime.env, (em) => deactivateUserCommand(em, ref)),
    (result) =>
      result.changed
        ? `Deactivated user ${result.id} <${result.email}>.`
        : `User ${result.id} <${result.email}> was deactivated already.`,
  );
}

import type { EntityManager } from '@foodshare/domain';
import { deactivateAccount, type KeyValueStore, SessionStore } from '@foodshare/server-kit';
import type { Command } from 'commander';
import { withEntityManager } from '../../cli-context.ts';
import type { CliRuntime } from '../../cli-runtime.ts';
import { withKeyValueStore } from '../../cli-state.ts';
import { findUser, userCommand, type UserRef } from './user-ref.ts';

/** Deactivates the account and ends its sessions (in the services' key-value store). */
export async function deactivateUserCommand(
  em: EntityManager,
  store: KeyValueStore,
  ref: UserRef,
): Promise<{ id: number; email: string; changed: boolean }> {
  const target = await findUser(em, ref);
  const { user, changed } = await deactivateAccount(em, new SessionStore(store), target.id);
  return { id: user.id, email: user.email, changed };
}

/** `users deactivate`. */
export function deactivateUserLeaf(runtime: CliRuntime): Command {
  return userCommand(
    runtime,
    'deactivate',
    'deactivate an account: it cannot sign in, its sessions and OAuth tokens stop working at once',
    (ref) =>
      withKeyValueStore(runtime.env, (store) =>
        withEntityManager(runtime.env, (em) => deactivateUserCommand(em, store, ref)),
      ),
    (result) =>
      result.changed
        ? `Deactivated user ${result.id} <${result.email}>.`
        : `User ${result.id} <${result.email}> was deactivated already.`,
  );
}

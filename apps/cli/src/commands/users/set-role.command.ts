import { requireUserByEmail, setRole, type EntityManager, type Role } from '@foodshare/domain';
import { type KeyValueStore, SessionStore, updateSessionsOfAccount } from '@foodshare/server-kit';
import type { Command } from 'commander';
import { withEntityManager } from '../../cli-context.ts';
import { leafCommand, runCommand, type CliRuntime, type JsonFlag } from '../../cli-runtime.ts';
import { withKeyValueStore } from '../../cli-state.ts';
import { parseRole, roleName, ROLE_NAMES } from './roles.ts';

export interface SetRoleOptions {
  email: string;
  role: Role;
}

export interface SetRoleResult {
  id: number;
  email: string;
  role: Role;
  previousRole: Role;
}

/** A new role; the user's sessions (in the services' key-value store) carry it at once. */
export async function setRoleCommand(
  em: EntityManager,
  store: KeyValueStore,
  options: SetRoleOptions,
): Promise<SetRoleResult> {
  const user = await requireUserByEmail(em, options.email);
  const previousRole = user.role;
  await setRole(em, user.id, options.role);
  await updateSessionsOfAccount(em, new SessionStore(store), user.id);
  return { id: user.id, email: user.email, role: user.role, previousRole };
}

/** `users set-role`. */
export function setRoleLeaf(runtime: CliRuntime): Command {
  return leafCommand('set-role', 'change the role of a user (their sessions carry it at once)')
    .argument('<email>', 'email address of the user')
    .argument('<role>', `${Object.keys(ROLE_NAMES).join(', ')} or 0-4`, parseRole)
    .action((email: string, role: Role, flags: JsonFlag) =>
      runCommand(
        runtime,
        flags,
        () =>
          withKeyValueStore(runtime.env, (store) =>
            withEntityManager(runtime.env, (em) => setRoleCommand(em, store, { email, role })),
          ),
        (result) =>
          `User ${result.id} <${result.email}>: role ${roleName(result.previousRole)} -> ${roleName(result.role)}.`,
      ),
    );
}

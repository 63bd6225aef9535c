import { RegionMembershipEntity, type EntityManager } from '@foodshare/domain';
import type { Command } from 'commander';
import { withEntityManager } from '../../cli-context.ts';
import type { CliRuntime } from '../../cli-runtime.ts';
import { findUser, userCommand, type UserRef } from './user-ref.ts';
import { describeUser, listItem, type UserListItem } from './user-summary.ts';

export interface UserDetails extends UserListItem {
  sleeping: boolean;
  createdAt: string;
  lastLoginAt: string | null;
  /** The regions and groups the user is an active member of. */
  memberOf: number[];
}

export async function showUserCommand(em: EntityManager, ref: UserRef): Promise<UserDetails> {
  const user = await findUser(em, ref);
  const memberships = await em.find(
    RegionMembershipEntity,
    { user: user.id, active: true },
    { orderBy: { region: 'asc' } },
  );
  return {
    ...listItem(user),
    sleeping: user.sleeping,
    createdAt: user.createdAt.toISOString(),
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    memberOf: memberships.map((membership) => membership.region.id),
  };
}

/** `users show`. */
export function showUserLeaf(runtime: CliRuntime): Command {
  return userCommand(
    runtime,
    'show',
    'show one user',
    (ref) => withEntityManager(runtime.env, (em) => showUserCommand(em, ref)),
    (user) =>
      [
        describeUser(user),
        `  member of: ${user.memberOf.length > 0 ? user.memberOf.join(' ') : 'none'}`,
        `  created ${user.createdAt}, last login ${user.lastLoginAt ?? 'never'}`,
      ].join('\n'),
  );
}

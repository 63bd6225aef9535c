import { UserEntity, type EntityManager, type Role } from '@foodshare/domain';
import type { Command } from 'commander';
import { withEntityManager } from '../../cli-context.ts';
import { leafCommand, runCommand, type CliRuntime, type JsonFlag } from '../../cli-runtime.ts';
import { listText, withPageOptions, type PageFlags } from '../../list-pages.ts';
import { parseRole, ROLE_NAMES } from './roles.ts';
import { describeUser, listItem, type UserListItem } from './user-summary.ts';

export interface ListUsersOptions {
  limit: number;
  offset: number;
  role?: Role;
  /** Only deactivated accounts (true) or only active ones (false). */
  deactivated?: boolean;
}

export async function listUsersCommand(
  em: EntityManager,
  options: ListUsersOptions,
): Promise<UserListItem[]> {
  const users = await em.find(
    UserEntity,
    {
      ...(options.role === undefined ? {} : { role: options.role }),
      ...(options.deactivated === undefined ? {} : { activated: !options.deactivated }),
    },
    { orderBy: { id: 'asc' }, limit: options.limit, offset: options.offset },
  );
  return users.map(listItem);
}

interface ListUsersFlags extends JsonFlag, PageFlags {
  role?: Role;
  deactivated?: boolean;
}

/** `users list`. */
export function listUsersLeaf(runtime: CliRuntime): Command {
  return withPageOptions(leafCommand('list', 'list users by id, a page at a time'), 'users')
    .option(
      '--role <role>',
      `only this role: ${Object.keys(ROLE_NAMES).join(', ')} or 0-4`,
      parseRole,
    )
    .option('--deactivated', 'only deactivated accounts')
    .action((flags: ListUsersFlags) =>
      runCommand(
        runtime,
        flags,
        () =>
          withEntityManager(runtime.env, (em) =>
            listUsersCommand(em, {
              limit: flags.limit,
              offset: flags.offset,
              ...(flags.role === undefined ? {} : { role: flags.role }),
              ...(flags.deactivated ? { deactivated: true } : {}),
            }),
          ),
        (list) => listText(list, 'No users.', describeUser),
      ),
    );
}

import { userGrantEnder } from '@foodshare/server-kit/oauth-grants';
import {
  deactivateUser,
  RegionMembershipEntity,
  requireUser,
  requireUserByEmail,
  type Role,
  setUserPassword,
  updateUser,
  UserEntity,
  type UpdateUserInput,
  type EntityManager,
} from '@foodshare/domain';
import { SessionStore, type KeyValueStore } from '@foodshare/server-kit';
import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import {
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
  secondsFromEnv,
  withEntityManager,
  type CliEnvironment,
} from '../cli-context.ts';
import {
  leafCommand,
  parseLimit,
  parseOffset,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../cli-runtime.ts';
import { withKeyValueStore } from '../cli-state.ts';
import {
  parseRole,
  passwordFromStdin,
  roleName,
  summarize,
  ROLE_NAMES,
  type UserSummary,
} from './users.command.ts';

/** A user named on the command line by id (`42`) or email address. */
export type UserRef = { id: number } | { email: string };

export function parseUserRef(value: string): UserRef {
  const trimmed = value.trim();
  if (/^[0-9]+$/.test(trimmed)) return { id: parsePositiveInteger(trimmed) };
  if (trimmed.includes('@')) return { email: trimmed };
  throw new InvalidArgumentError('Expected a user id or an email address.');
}

export function findUser(em: EntityManager, ref: UserRef): Promise<UserEntity> {
  return 'id' in ref ? requireUser(em, ref.id) : requireUserByEmail(em, ref.email);
}

export interface UserListItem extends UserSummary {
  activated: boolean;
}

export interface UserDetails extends UserListItem {
  sleeping: boolean;
  createdAt: string;
  lastLoginAt: string | null;
  /** The regions and groups the user is an active member of. */
  memberOf: number[];
}

function listItem(user: UserEntity): UserListItem {
  return { ...summarize(user), activated: user.activated };
}

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

export async function deactivateUserCommand(
  em: EntityManager,
  ref: UserRef,
): Promise<{ id: number; email: string; changed: boolean }> {
  const { user, changed } = await deactivateUser(em, (await findUser(em, ref)).id);
  return { id: user.id, email: user.email, changed };
}

export async function updateUserCommand(
  em: EntityManager,
  ref: UserRef,
  update: UpdateUserInput,
): Promise<UserSummary> {
  return summarize(await updateUser(em, (await findUser(em, ref)).id, update));
}

/**
 * A new password; every session of the user ends with the old one (they live in the services'
 * key-value store), and so does every OAuth grant: the refresh tokens (setUserPassword, and
 * their families here) and the access tokens issued from them, which would otherwise work
 * until they expire. A reset follows a lost or leaked password: whoever held it may hold those.
 */
export async function resetPasswordCommand(
  em: EntityManager,
  store: KeyValueStore,
  ref: UserRef,
  password: string,
  env: Pick<CliEnvironment, 'REFRESH_TOKEN_TTL_SECONDS'> = {},
): Promise<{ id: number; email: string; sessionsEnded: number; appsEnded: string[] }> {
  const user = await setUserPassword(em, (await findUser(em, ref)).id, password);
  const sessionsEnded = await new SessionStore(store).destroyOthers(user.id);
  const endGrants = userGrantEnder(store, () => em.fork(), {
    REFRESH_TOKEN_TTL_SECONDS: secondsFromEnv(
      env,
      'REFRESH_TOKEN_TTL_SECONDS',
      DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
    ),
  });
  const appsEnded = await endGrants(user.id);
  return { id: user.id, email: user.email, sessionsEnded, appsEnded };
}

function describeUser(user: UserListItem): string {
  return (
    `${user.id}\t${user.email}\t${user.firstName} ${user.lastName}\t${roleName(user.role)}` +
    `${user.verified ? '\tverified' : ''}${user.activated ? '' : '\tdeactivated'}`
  );
}

interface UpdateUserFlags extends JsonFlag {
  firstName?: string;
  lastName?: string;
  email?: string;
  homeRegion?: number;
}

interface ListUsersFlags extends JsonFlag {
  limit: number;
  offset: number;
  role?: Role;
  deactivated?: boolean;
}

/** A command that names one user, by id or email address, and runs `action` on them. */
function userCommand<T>(
  runtime: CliRuntime,
  name: string,
  description: string,
  action: (ref: UserRef) => Promise<T>,
  describe: (result: T) => string,
): Command {
  return leafCommand(name, description)
    .argument('<user>', 'id or email address of the user', parseUserRef)
    .action((ref: UserRef, flags: JsonFlag) =>
      runCommand(runtime, flags, () => action(ref), describe),
    );
}

/** users list, show, update, deactivate and reset-password, added to the `users` command. */
export function addUserAdminCommands(users: Command, runtime: CliRuntime): Command {
  users.addCommand(
    leafCommand('list', 'list users by id, a page at a time')
      .addOption(
        new Option('--limit <n>', 'users per page, 1 to 1000').argParser(parseLimit).default(100),
      )
      .addOption(new Option('--offset <n>', 'users to skip').argParser(parseOffset).default(0))
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
          (list) => (list.length === 0 ? 'No users.' : list.map(describeUser).join('\n')),
        ),
      ),
  );

  users.addCommand(
    userCommand(
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
    ),
  );

  users.addCommand(
    leafCommand('update', "change a user's names, email address or home region")
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
      ),
  );

  users.addCommand(
    userCommand(
      runtime,
      'deactivate',
      'deactivate an account: it cannot sign in, its sessions and OAuth tokens stop working at once',
      (ref) => withEntityManager(runtime.env, (em) => deactivateUserCommand(em, ref)),
      (result) =>
        result.changed
          ? `Deactivated user ${result.id} <${result.email}>.`
          : `User ${result.id} <${result.email}> was deactivated already.`,
    ),
  );

  users.addCommand(
    userCommand(
      runtime,
      'reset-password',
      "set a user's password, read from standard input; ends the user's sessions and OAuth grants (refresh and access tokens)",
      async (ref) => {
        const password = passwordFromStdin(await runtime.io.readStdin());
        return withKeyValueStore(runtime.env, (store) =>
          withEntityManager(runtime.env, (em) =>
            resetPasswordCommand(em, store, ref, password, runtime.env),
          ),
        );
      },
      (result) =>
        `New password for user ${result.id} <${result.email}>; ${result.sessionsEnded} session(s) ended, ` +
        `grants of ${result.appsEnded.length} app(s) ended.`,
    ),
  );

  return users;
}

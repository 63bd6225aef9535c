import {
  createUser,
  requireUserByEmail,
  Role,
  setRole,
  type EntityManager,
  type UserEntity,
} from '@foodshare/domain';
import { Command, Option } from 'commander';
import { CliError, withEntityManager } from '../cli-context.ts';
import {
  leafCommand,
  parseCode,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../cli-runtime.ts';

export const ROLE_NAMES: Readonly<Record<string, Role>> = {
  foodsharer: Role.Foodsharer,
  foodsaver: Role.Foodsaver,
  'store-manager': Role.StoreManager,
  ambassador: Role.Ambassador,
  orga: Role.Orga,
};

export const parseRole = parseCode('role', ROLE_NAMES);

export function roleName(role: Role): string {
  return Object.keys(ROLE_NAMES).find((name) => ROLE_NAMES[name] === role) ?? String(role);
}

export interface UserSummary {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  verified: boolean;
  homeRegionId: number | null;
}

export function summarize(user: UserEntity): UserSummary {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    verified: user.verified,
    homeRegionId: user.homeRegion?.id ?? null,
  };
}

export interface CreateUserOptions {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  role?: Role;
  verified?: boolean;
  homeRegionId?: number;
}

export async function createUserCommand(
  em: EntityManager,
  options: CreateUserOptions,
): Promise<UserSummary> {
  return summarize(await createUser(em, options));
}

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

export async function setRoleCommand(
  em: EntityManager,
  options: SetRoleOptions,
): Promise<SetRoleResult> {
  const user = await requireUserByEmail(em, options.email);
  const previousRole = user.role;
  await setRole(em, user.id, options.role);
  return { id: user.id, email: user.email, role: user.role, previousRole };
}

/** A password on stdin ends with the newline of `echo` or of the terminal; it is not part of it. */
export function passwordFromStdin(input: string): string {
  return input.replace(/\r?\n$/, '');
}

interface CreateUserFlags extends JsonFlag {
  email: string;
  firstName: string;
  lastName: string;
  password?: string;
  passwordStdin?: boolean;
  role: Role;
  verified?: boolean;
  homeRegion?: number;
}

async function resolvePassword(runtime: CliRuntime, flags: CreateUserFlags): Promise<string> {
  if (flags.password !== undefined && flags.passwordStdin) {
    throw new CliError('INVALID_INPUT', 'Give either --password or --password-stdin, not both.');
  }
  if (flags.passwordStdin) return passwordFromStdin(await runtime.io.readStdin());
  if (flags.password !== undefined) return flags.password;
  throw new CliError('INVALID_INPUT', 'A password is required: --password or --password-stdin.');
}

export function usersCommands(runtime: CliRuntime): Command {
  const users = new Command('users').description(
    'create, list, show, update and deactivate users; roles, passwords. There is no delete: ' +
      'deleting would erase the reports about a user and unname their posts and store logs, so accounts are deactivated instead',
  );

  users.addCommand(
    leafCommand('create', 'create a user (the password is stored as an argon2id hash)')
      .requiredOption('--email <email>', 'email address, the login name (stored in lower case)')
      .requiredOption('--first-name <name>', 'first name, shown to other users')
      .requiredOption('--last-name <name>', 'last name')
      .option(
        '--password <password>',
        'password (visible in the process list: prefer --password-stdin)',
      )
      .option('--password-stdin', 'read the password from standard input')
      .addOption(
        new Option('--role <role>', `role: ${Object.keys(ROLE_NAMES).join(', ')} or 0-4`)
          .argParser(parseRole)
          .default(Role.Foodsharer, 'foodsharer'),
      )
      .option('--verified', 'mark the user as verified')
      .option(
        '--home-region <regionId>',
        'home region; the user also becomes a member',
        parsePositiveInteger,
      )
      .action((flags: CreateUserFlags) =>
        runCommand(
          runtime,
          flags,
          async () => {
            const password = await resolvePassword(runtime, flags);
            return withEntityManager(runtime.env, (em) =>
              createUserCommand(em, {
                email: flags.email,
                firstName: flags.firstName,
                lastName: flags.lastName,
                password,
                role: flags.role,
                verified: flags.verified ?? false,
                ...(flags.homeRegion === undefined ? {} : { homeRegionId: flags.homeRegion }),
              }),
            );
          },
          (user) =>
            `Created user ${user.id} <${user.email}> with role ${roleName(user.role)}` +
            (user.verified ? ', verified.' : ', not verified.'),
        ),
      ),
  );

  users.addCommand(
    leafCommand('set-role', 'change the role of a user')
      .argument('<email>', 'email address of the user')
      .argument('<role>', `${Object.keys(ROLE_NAMES).join(', ')} or 0-4`, parseRole)
      .action((email: string, role: Role, flags: JsonFlag) =>
        runCommand(
          runtime,
          flags,
          () => withEntityManager(runtime.env, (em) => setRoleCommand(em, { email, role })),
          (result) =>
            `User ${result.id} <${result.email}>: role ${roleName(result.previousRole)} -> ${roleName(result.role)}.`,
        ),
      ),
  );

  return users;
}

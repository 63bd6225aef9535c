import { createUser, Role, type EntityManager } from '@foodshare/domain';
import { Option, type Command } from 'commander';
import { CliError, withEntityManager } from '../../cli-context.ts';
import {
  leafCommand,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../../cli-runtime.ts';
import { passwordFromStdin } from './password-stdin.ts';
import { parseRole, roleName, ROLE_NAMES } from './roles.ts';
import { summarize, type UserSummary } from './user-summary.ts';

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

/** `users create`. */
export function createUserLeaf(runtime: CliRuntime): Command {
  return leafCommand('create', 'create a user (the password is stored as an argon2id hash)')
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
    );
}

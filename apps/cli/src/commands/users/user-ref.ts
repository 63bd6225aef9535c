import {
  requireUser,
  requireUserByEmail,
  type EntityManager,
  type UserEntity,
} from '@foodshare/domain';
import { InvalidArgumentError, type Command } from 'commander';
import {
  leafCommand,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../../cli-runtime.ts';

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

/** A command that names one user, by id or email address, and runs `action` on them. */
export function userCommand<T>(
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

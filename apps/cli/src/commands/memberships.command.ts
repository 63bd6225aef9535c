import {
  addMembership,
  requireUserByEmail,
  type EntityManager,
  type MembershipOutcome,
} from '@foodshare/domain';
import { Command } from 'commander';
import { withEntityManager } from '../cli-context.ts';
import {
  leafCommand,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../cli-runtime.ts';

export interface AddMembershipOptions {
  email: string;
  regionId: number;
}

export interface MembershipResult {
  userId: number;
  email: string;
  regionId: number;
  outcome: MembershipOutcome;
}

export async function addMembershipCommand(
  em: EntityManager,
  options: AddMembershipOptions,
): Promise<MembershipResult> {
  const user = await requireUserByEmail(em, options.email);
  const outcome = await addMembership(em, user.id, options.regionId);
  return { userId: user.id, email: user.email, regionId: options.regionId, outcome };
}

const OUTCOME_TEXT: Record<MembershipOutcome, string> = {
  added: 'is now a member of',
  reactivated: 'is a member again of',
  unchanged: 'was already a member of',
};

export function membershipsCommands(runtime: CliRuntime): Command {
  const memberships = new Command('memberships').description('region and working-group members');

  memberships.addCommand(
    leafCommand('add', 'make a user a member of a region or working group (idempotent)')
      .argument('<email>', 'email address of the user')
      .argument('<regionId>', 'id of the region or working group', parsePositiveInteger)
      .action((email: string, regionId: number, flags: JsonFlag) =>
        runCommand(
          runtime,
          flags,
          () =>
            withEntityManager(runtime.env, (em) => addMembershipCommand(em, { email, regionId })),
          (result) =>
            `User ${result.userId} <${result.email}> ${OUTCOME_TEXT[result.outcome]} region ${result.regionId}.`,
        ),
      ),
  );

  return memberships;
}

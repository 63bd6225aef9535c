import {
  addMembership,
  RegionMembershipEntity,
  removeMembership,
  requireRegion,
  requireUserByEmail,
  type EntityManager,
  type MembershipOutcome,
  type RemoveMembershipResult,
} from '@foodshare/domain';
import { Command } from 'commander';
import { CliError, withEntityManager } from '../cli-context.ts';
import {
  leafCommand,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../cli-runtime.ts';
import { userInRegionLeaf, type UserInRegion } from './user-region-command.ts';
import { listText, withPageOptions, type PageFlags } from '../list-pages.ts';
import { findUser, parseUserRef, type UserRef } from './users/user-ref.ts';

export type AddMembershipOptions = UserInRegion;

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

export interface RemoveMembershipCommandResult extends RemoveMembershipResult {
  userId: number;
  email: string;
  regionId: number;
}

export async function removeMembershipCommand(
  em: EntityManager,
  options: AddMembershipOptions,
): Promise<RemoveMembershipCommandResult> {
  const user = await requireUserByEmail(em, options.email);
  const result = await removeMembership(em, user.id, options.regionId);
  return { userId: user.id, email: user.email, regionId: options.regionId, ...result };
}

export interface ListMembershipsOptions {
  limit: number;
  offset: number;
  regionId?: number;
  user?: UserRef;
}

export interface MembershipListItem {
  userId: number;
  email: string;
  regionId: number;
  active: boolean;
  joinedAt: string;
}

export async function listMembershipsCommand(
  em: EntityManager,
  options: ListMembershipsOptions,
): Promise<MembershipListItem[]> {
  if (options.regionId === undefined && options.user === undefined) {
    throw new CliError('INVALID_INPUT', 'Name a region (--region), a user (--user) or both.');
  }
  // Unknown names are errors, not empty lists: a typo should not look like "no members".
  const region = options.regionId === undefined ? null : await requireRegion(em, options.regionId);
  const user = options.user === undefined ? null : await findUser(em, options.user);
  const memberships = await em.find(
    RegionMembershipEntity,
    { ...(region ? { region: region.id } : {}), ...(user ? { user: user.id } : {}) },
    {
      populate: ['user'],
      orderBy: { region: 'asc', user: 'asc' },
      limit: options.limit,
      offset: options.offset,
    },
  );
  return memberships.map((membership) => ({
    userId: membership.user.id,
    email: membership.user.getEntity().email,
    regionId: membership.region.id,
    active: membership.active,
    joinedAt: membership.joinedAt.toISOString(),
  }));
}

const OUTCOME_TEXT: Record<MembershipOutcome, string> = {
  added: 'is now a member of',
  reactivated: 'is a member again of',
  unchanged: 'was already a member of',
};

interface ListMembershipsFlags extends JsonFlag, PageFlags {
  region?: number;
  user?: UserRef;
}

export function membershipsCommands(runtime: CliRuntime): Command {
  const memberships = new Command('memberships').description(
    'list, add and remove region and working-group members',
  );

  memberships.addCommand(
    withPageOptions(
      leafCommand('list', 'list the members of a region, the regions of a user, or both')
        .option(
          '--region <regionId>',
          'members of this region or working group',
          parsePositiveInteger,
        )
        .option('--user <user>', 'memberships of this user (id or email address)', parseUserRef),
      'memberships',
    ).action((flags: ListMembershipsFlags) =>
      runCommand(
        runtime,
        flags,
        () =>
          withEntityManager(runtime.env, (em) =>
            listMembershipsCommand(em, {
              limit: flags.limit,
              offset: flags.offset,
              ...(flags.region === undefined ? {} : { regionId: flags.region }),
              ...(flags.user === undefined ? {} : { user: flags.user }),
            }),
          ),
        (list) =>
          listText(
            list,
            'No memberships.',
            (item) =>
              `${item.regionId}\t${item.userId}\t${item.email}\t${item.active ? 'active' : 'inactive'}\tsince ${item.joinedAt}`,
          ),
      ),
    ),
  );

  memberships.addCommand(
    userInRegionLeaf(
      runtime,
      'add',
      'make a user a member of a region or working group (idempotent)',
      addMembershipCommand,
      (result) =>
        `User ${result.userId} <${result.email}> ${OUTCOME_TEXT[result.outcome]} region ${result.regionId}.`,
    ),
  );

  memberships.addCommand(
    userInRegionLeaf(
      runtime,
      'remove',
      'end a membership, and the admin role in that unit with it (idempotent; not the home region)',
      removeMembershipCommand,
      (result) =>
        `User ${result.userId} <${result.email}> ` +
        (result.membership === 'removed' ? 'is no longer a member of' : 'was not a member of') +
        ` region ${result.regionId}` +
        (result.adminRemoved ? ', nor an admin.' : '.'),
    ),
  );

  return memberships;
}

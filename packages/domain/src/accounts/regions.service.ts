import { RegionAdminEntity, RegionMembershipEntity } from '../entities/region-membership.entity.ts';
import { RegionEntity } from '../entities/region.entity.ts';
import { ApplyType, MEMBER_REGION_TYPES, RegionType, WorkGroupFunction } from '../enums.ts';
import type { EntityManager } from '../db/orm.ts';
import { AccountError } from './account-errors.ts';
import { syncIdentitySequence } from './identity-sequences.ts';
import { requireRegion, requireUser } from './lookups.ts';

const MAX_REGION_NAME_LENGTH = 120;
const MAX_ID = 2_147_483_647;

export interface CreateRegionInput {
  /** An explicit id, for units whose id is known elsewhere (the well-known units). */
  id?: number;
  name: string;
  type: RegionType;
  parentId?: number | null;
  masterId?: number | null;
  /** Working groups (type 7) only. */
  workgroupFunction?: WorkGroupFunction | null;
  applyType?: ApplyType;
  mailbox?: string | null;
  emailName?: string | null;
  /** An IANA time-zone name; null inherits the parent's. */
  timezone?: string | null;
  allowHidingInForum?: boolean;
}

export function isRegionType(value: unknown): value is RegionType {
  return Object.values(RegionType).includes(value as RegionType);
}

export function isWorkGroupFunction(value: unknown): value is WorkGroupFunction {
  return Object.values(WorkGroupFunction).includes(value as WorkGroupFunction);
}

/** Members join cities, districts, regions, parts of town and working groups; the levels above have none. */
export function takesMembers(region: Pick<RegionEntity, 'type'>): boolean {
  return region.type === RegionType.WorkingGroup || MEMBER_REGION_TYPES.includes(region.type);
}

export function assertTakesMembers(region: Pick<RegionEntity, 'id' | 'name' | 'type'>): void {
  if (!takesMembers(region)) {
    throw new AccountError(
      'REGION_TAKES_NO_MEMBERS',
      `Region ${region.id} (${region.name}) is of type ${region.type}, which has no direct members`,
    );
  }
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function invalid(message: string): AccountError {
  return new AccountError('INVALID_INPUT', message);
}

/** The trimmed name; shared by creating and renaming a region. */
export function requireRegionName(value: string): string {
  const name = value.trim();
  if (name === '' || name.length > MAX_REGION_NAME_LENGTH) {
    throw invalid(`The region name must have 1 to ${MAX_REGION_NAME_LENGTH} characters`);
  }
  return name;
}

/** Only working groups have a function; shared by creating and updating a region. */
export function assertWorkGroupFunction(
  type: RegionType,
  workgroupFunction: WorkGroupFunction | null,
): void {
  if (workgroupFunction === null) return;
  if (type !== RegionType.WorkingGroup) {
    throw invalid('Only working groups (type 7) have a function');
  }
  if (!isWorkGroupFunction(workgroupFunction)) {
    throw invalid(`Unknown working-group function ${String(workgroupFunction)}`);
  }
}

export async function createRegion(
  em: EntityManager,
  input: CreateRegionInput,
): Promise<RegionEntity> {
  const name = requireRegionName(input.name);
  if (!isRegionType(input.type)) throw invalid(`Unknown region type ${String(input.type)}`);
  const workgroupFunction = input.workgroupFunction ?? null;
  assertWorkGroupFunction(input.type, workgroupFunction);
  const applyType = input.applyType ?? ApplyType.ByApplication;
  if (!Object.values(ApplyType).includes(applyType)) {
    throw invalid(`Unknown apply type ${String(applyType)}`);
  }
  const timezone = input.timezone ?? null;
  if (timezone !== null && !isTimeZone(timezone)) throw invalid(`Unknown time zone ${timezone}`);
  if (input.id !== undefined) {
    if (!Number.isSafeInteger(input.id) || input.id < 1 || input.id > MAX_ID) {
      throw invalid(`A region id is an integer from 1 to ${MAX_ID}`);
    }
    if ((await em.count(RegionEntity, { id: input.id })) > 0) {
      throw new AccountError('REGION_ID_TAKEN', `A region with the id ${input.id} already exists`);
    }
  }
  const parent = input.parentId == null ? null : await requireRegion(em, input.parentId);
  const master = input.masterId == null ? null : await requireRegion(em, input.masterId);

  const region = em.create(RegionEntity, {
    ...(input.id === undefined ? {} : { id: input.id }),
    name,
    type: input.type,
    parent,
    master,
    workgroupFunction,
    applyType,
    mailbox: input.mailbox ?? null,
    emailName: input.emailName ?? null,
    timezone,
    allowHidingInForum: input.allowHidingInForum ?? false,
  });
  await em.flush();
  if (input.id !== undefined) await syncIdentitySequence(em, 'regions');
  return region;
}

export type MembershipOutcome = 'added' | 'reactivated' | 'unchanged';

/** Idempotent: an existing active membership is left as it is, an inactive one reactivated. */
export async function addMembership(
  em: EntityManager,
  userId: number,
  regionId: number,
): Promise<MembershipOutcome> {
  const user = await requireUser(em, userId);
  const region = await requireRegion(em, regionId);
  assertTakesMembers(region);
  const outcome = await ensureMembership(em, user.id, region.id);
  await em.flush();
  return outcome;
}

/** Adds or reactivates a membership; the caller flushes. */
export async function ensureMembership(
  em: EntityManager,
  userId: number,
  regionId: number,
): Promise<MembershipOutcome> {
  const existing = await em.findOne(RegionMembershipEntity, { region: regionId, user: userId });
  if (!existing) {
    em.create(RegionMembershipEntity, { region: regionId, user: userId });
    return 'added';
  }
  if (existing.active) return 'unchanged';
  existing.active = true;
  return 'reactivated';
}

export interface AddAdminResult {
  admin: 'added' | 'unchanged';
  /** Null for a region without direct members (a country, a federal state). */
  membership: MembershipOutcome | null;
}

/**
 * Makes the user an admin of the unit (ambassador of a region, admin of a working group).
 * An admin is also a member wherever the unit has members, as on the reference platform.
 */
export async function addAdmin(
  em: EntityManager,
  userId: number,
  regionId: number,
): Promise<AddAdminResult> {
  const user = await requireUser(em, userId);
  const region = await requireRegion(em, regionId);
  const membership = takesMembers(region) ? await ensureMembership(em, user.id, region.id) : null;
  const existing = await em.findOne(RegionAdminEntity, { region: region.id, user: user.id });
  if (!existing) em.create(RegionAdminEntity, { region: region.id, user: user.id });
  await em.flush();
  return { admin: existing ? 'unchanged' : 'added', membership };
}

export interface RemoveMembershipResult {
  membership: 'removed' | 'unchanged';
  /** The user was an admin of the unit too: an admin is a member wherever the unit has members. */
  adminRemoved: boolean;
}

/**
 * Idempotent: ends a membership (active or not) and, with it, the user's admin role in that unit,
 * so that no admin is left in a unit they do not belong to. The home region is refused: as on the
 * reference platform, a user changes their home region before leaving it.
 */
export async function removeMembership(
  em: EntityManager,
  userId: number,
  regionId: number,
): Promise<RemoveMembershipResult> {
  const user = await requireUser(em, userId);
  const region = await requireRegion(em, regionId);
  if (user.homeRegion?.id === region.id) {
    throw new AccountError(
      'REGION_IS_HOME_REGION',
      `Region ${region.id} (${region.name}) is the home region of user ${user.id}; change it first`,
    );
  }
  return em.transactional(async (tx) => {
    const removed = await tx.nativeDelete(RegionMembershipEntity, {
      region: region.id,
      user: user.id,
    });
    // The admins of a country or federal state are no members of it: their role stays.
    const adminRemoved = takesMembers(region)
      ? (await tx.nativeDelete(RegionAdminEntity, { region: region.id, user: user.id })) > 0
      : false;
    return { membership: removed > 0 ? 'removed' : 'unchanged', adminRemoved };
  });
}

import { LockMode, ref, UniqueConstraintViolationException } from '@mikro-orm/core';
import { RegionMembershipEntity } from '../entities/region-membership.entity.ts';
import type { RegionEntity } from '../entities/region.entity.ts';
import { UserEntity } from '../entities/user.entity.ts';
import { Role } from '../enums.ts';
import type { EntityManager } from '../db/orm.ts';
import { hashPassword } from '../passwords.ts';
import { AccountError } from './account-errors.ts';
import { normalizeEmail, requireRegion, requireUser } from './lookups.ts';
import { assertTakesMembers, ensureMembership } from './regions.service.ts';

/** NIST SP 800-63B's floor for a password the user chose. */
export const MIN_PASSWORD_LENGTH = 8;
// argon2 hashes whatever it is given; an upper bound keeps a pasted file from costing seconds.
const MAX_PASSWORD_LENGTH = 1024;
const MAX_NAME_LENGTH = 100;
const MAX_EMAIL_LENGTH = 255;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface CreateUserInput {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  role?: Role;
  verified?: boolean;
  /** Also makes the user a member of this region. */
  homeRegionId?: number | null;
}

export function isRole(value: unknown): value is Role {
  return Object.values(Role).includes(value as Role);
}

function requireName(value: string, label: string): string {
  const name = value.trim();
  if (name === '' || name.length > MAX_NAME_LENGTH) {
    throw new AccountError(
      'INVALID_INPUT',
      `${label} must have 1 to ${MAX_NAME_LENGTH} characters`,
    );
  }
  return name;
}

function requireRole(role: unknown): Role {
  if (!isRole(role)) {
    throw new AccountError(
      'INVALID_INPUT',
      `Unknown role ${String(role)}: roles are 0 (foodsharer) to 4 (orga)`,
    );
  }
  return role;
}

function requirePassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new AccountError(
      'INVALID_INPUT',
      `The password must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`,
    );
  }
}

function emailTaken(email: string): AccountError {
  return new AccountError('EMAIL_TAKEN', `A user with the email address ${email} already exists`);
}

function requireEmail(value: string): string {
  const email = normalizeEmail(value);
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(email)) {
    throw new AccountError('INVALID_INPUT', `Not an email address: ${value}`);
  }
  return email;
}

export async function createUser(em: EntityManager, input: CreateUserInput): Promise<UserEntity> {
  const firstName = requireName(input.firstName, 'The first name');
  const lastName = requireName(input.lastName, 'The last name');
  const email = requireEmail(input.email);
  requirePassword(input.password);
  const role = requireRole(input.role ?? Role.Foodsharer);
  if ((await em.count(UserEntity, { email })) > 0) throw emailTaken(email);

  let homeRegion: RegionEntity | null = null;
  if (input.homeRegionId != null) {
    homeRegion = await requireRegion(em, input.homeRegionId);
    assertTakesMembers(homeRegion);
  }

  const user = em.create(UserEntity, {
    firstName,
    lastName,
    email,
    passwordHash: await hashPassword(input.password),
    role,
    verified: input.verified ?? false,
    homeRegion,
  });
  if (homeRegion) em.create(RegionMembershipEntity, { region: homeRegion, user });
  try {
    await em.flush();
  } catch (error) {
    // Another writer took the address between the check and the insert.
    if (error instanceof UniqueConstraintViolationException) throw emailTaken(email);
    throw error;
  }
  return user;
}

export interface UpdateUserInput {
  firstName?: string;
  lastName?: string;
  /** The login name: unique, stored in lower case. */
  email?: string;
  /** A region that takes members; the user becomes a member of it (and stays one of the old). */
  homeRegionId?: number;
}

/** Changes a user's names, email address or home region, validated as when it was created. */
export async function updateUser(
  em: EntityManager,
  userId: number,
  input: UpdateUserInput,
): Promise<UserEntity> {
  const user = await requireUser(em, userId);
  const firstName =
    input.firstName === undefined ? undefined : requireName(input.firstName, 'The first name');
  const lastName =
    input.lastName === undefined ? undefined : requireName(input.lastName, 'The last name');
  const email = input.email === undefined ? undefined : requireEmail(input.email);
  if (email !== undefined && email !== user.email && (await em.count(UserEntity, { email })) > 0) {
    throw emailTaken(email);
  }
  let homeRegion: RegionEntity | undefined;
  if (input.homeRegionId !== undefined) {
    homeRegion = await requireRegion(em, input.homeRegionId);
    assertTakesMembers(homeRegion);
  }
  return em.transactional(async (tx) => {
    const locked = await tx.findOneOrFail(UserEntity, user.id, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
    });
    if (firstName !== undefined) locked.firstName = firstName;
    if (lastName !== undefined) locked.lastName = lastName;
    if (email !== undefined) locked.email = email;
    if (homeRegion) {
      locked.homeRegion = ref(homeRegion);
      await ensureMembership(tx, locked.id, homeRegion.id);
    }
    try {
      await tx.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException && email) throw emailTaken(email);
      throw error;
    }
    return locked;
  });
}

export async function setRole(em: EntityManager, userId: number, role: Role): Promise<UserEntity> {
  const checked = requireRole(role);
  const user = await requireUser(em, userId);
  user.role = checked;
  await em.flush();
  return user;
}

/**
 * Deactivates an account: it can no longer sign in, and every request of its sessions and every
 * token check reads the flag and refuses it at once. Its OAuth refresh tokens end too
 * (`tokens_valid_after`, PostgreSQL's clock as the token checks compare it, docs/design.md §4.9),
 * so that reactivating the account later does not bring them back. `changed` is false when it
 * was deactivated already (then nothing is written).
 */
export async function deactivateUser(
  em: EntityManager,
  userId: number,
): Promise<{ user: UserEntity; changed: boolean }> {
  const user = await requireUser(em, userId);
  if (!user.activated) return { user, changed: false };
  await em.execute(
    'update users set activated = false, tokens_valid_after = clock_timestamp() where id = ?',
    [user.id],
  );
  await em.refresh(user);
  return { user, changed: true };
}

/**
 * Gives an account a new password (stored as an argon2id hash). The account's OAuth refresh
 * tokens end with the old password (`tokens_valid_after`): a reset follows a lost or leaked one.
 * Its sessions live in the key-value store; the caller ends them.
 */
export async function setUserPassword(
  em: EntityManager,
  userId: number,
  password: string,
): Promise<UserEntity> {
  requirePassword(password);
  const user = await requireUser(em, userId);
  await em.execute(
    'update users set password_hash = ?, tokens_valid_after = clock_timestamp() where id = ?',
    [await hashPassword(password), user.id],
  );
  await em.refresh(user);
  return user;
}

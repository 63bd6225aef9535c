import { RegionEntity } from '../entities/region.entity.ts';
import { UserEntity } from '../entities/user.entity.ts';
import type { EntityManager } from '../db/orm.ts';
import { AccountError } from './account-errors.ts';

/** Emails are stored and compared in lower case (the column enforces it). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function findUserByEmail(em: EntityManager, email: string): Promise<UserEntity | null> {
  return em.findOne(UserEntity, { email: normalizeEmail(email) });
}

export async function requireUserByEmail(em: EntityManager, email: string): Promise<UserEntity> {
  const user = await findUserByEmail(em, email);
  if (!user) throw new AccountError('USER_NOT_FOUND', `No user has the email address ${email}`);
  return user;
}

export async function requireUser(em: EntityManager, userId: number): Promise<UserEntity> {
  const user = Number.isSafeInteger(userId) ? await em.findOne(UserEntity, { id: userId }) : null;
  if (!user) throw new AccountError('USER_NOT_FOUND', `No user has the id ${userId}`);
  return user;
}

export async function requireRegion(em: EntityManager, regionId: number): Promise<RegionEntity> {
  const region = Number.isSafeInteger(regionId)
    ? await em.findOne(RegionEntity, { id: regionId })
    : null;
  if (!region) throw new AccountError('REGION_NOT_FOUND', `No region has the id ${regionId}`);
  return region;
}

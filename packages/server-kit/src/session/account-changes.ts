import { deactivateUser, type EntityManager, type UserEntity } from '@foodshare/domain';
import { readAccount } from '../actor.ts';
import type { SessionStore } from './session-store.ts';

/**
 * After a write to a user's role, verification or activation has committed: the user's live
 * sessions carry the account as PostgreSQL now has it, or end when it is no longer active.
 * Every path that makes such a write calls it, so that the next request sees the change
 * (docs/design.md §3.11).
 */
export async function updateSessionsOfAccount(
  em: EntityManager,
  sessions: SessionStore,
  userId: number,
): Promise<void> {
  const readAt = Date.now();
  await sessions.accountChanged(userId, await readAccount(em, userId), readAt);
}

/**
 * Deactivates an account (domain `deactivateUser`) and ends its sessions, also when it was
 * deactivated already: a run that failed after the write ends them then.
 */
export async function deactivateAccount(
  em: EntityManager,
  sessions: SessionStore,
  userId: number,
): Promise<{ user: UserEntity; changed: boolean }> {
  const deactivated = await deactivateUser(em, userId);
  await updateSessionsOfAccount(em, sessions, userId);
  return deactivated;
}

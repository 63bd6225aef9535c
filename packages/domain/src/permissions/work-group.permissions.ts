import { RESTRICTED_WORK_GROUP_FUNCTIONS, type WorkGroupFunction } from '../enums.ts';
import { type Actor, isOrga } from './actor.ts';

export interface WorkGroupApplicationFacts {
  readonly isGroupAdmin: boolean;
  /** The group's function, null for a group without one. */
  readonly groupFunction: WorkGroupFunction | null;
}

export function isRestrictedWorkGroupFunction(fn: WorkGroupFunction | null): boolean {
  return fn !== null && RESTRICTED_WORK_GROUP_FUNCTIONS.includes(fn);
}

/**
 * Membership of a restricted group (report, arbitration, foodsaver management, board) carries
 * power over other users, so its own admins cannot decide on applications; only orga can.
 */
export function mayDeclineWorkGroupApplication(
  actor: Actor,
  facts: WorkGroupApplicationFacts,
): boolean {
  if (isOrga(actor)) return true;
  return facts.isGroupAdmin && !isRestrictedWorkGroupFunction(facts.groupFunction);
}

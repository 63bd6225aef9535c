import { Role } from '../enums.ts';
import { type Actor, hasRoleAtLeast, isOrga } from './actor.ts';

export interface StoreFacts {
  /** The actor is a store manager (coordinator) of this store. */
  readonly isStoreManager: boolean;
  /**
   * The actor holds the stores-coordination duty of the store's region: admin of the region's
   * stores-coordination (function 4) working group, or its ambassador when it has none
   * (see `holdsRegionDuty`).
   */
  readonly holdsStoresCoordinationDuty: boolean;
}

/**
 * Orga edits every store. Anyone else needs the store-manager role first: a team manager or
 * region admin whose role was lowered (say, after a lapsed quiz) keeps the relation in the
 * data but no longer runs stores.
 */
export function mayEditStore(actor: Actor, facts: StoreFacts): boolean {
  if (isOrga(actor)) return true;
  if (!hasRoleAtLeast(actor, Role.StoreManager)) return false;
  return facts.isStoreManager || facts.holdsStoresCoordinationDuty;
}

/** The log names who did what in the team; it is for those who run the store. */
export function mayReadStoreLog(actor: Actor, facts: StoreFacts): boolean {
  return mayEditStore(actor, facts);
}

/** Applications carry personal data (names, distances); they are for those who decide on them. */
export function mayReadStoreTeamRequests(actor: Actor, facts: StoreFacts): boolean {
  return mayEditStore(actor, facts);
}

/** Accepting or declining an application changes the team, which is the store's editors' call. */
export function mayDecideStoreTeamRequests(actor: Actor, facts: StoreFacts): boolean {
  return mayEditStore(actor, facts);
}

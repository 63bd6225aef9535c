import { type Actor, isOrga } from './actor.ts';

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

export function mayEditStore(actor: Actor, facts: StoreFacts): boolean {
  return isOrga(actor) || facts.isStoreManager || facts.holdsStoresCoordinationDuty;
}

/** The log names who did what in the team; it is for those who run the store. */
export function mayReadStoreLog(actor: Actor, facts: StoreFacts): boolean {
  return mayEditStore(actor, facts);
}

/** Applications carry personal data (names, distances); they are for those who decide on them. */
export function mayReadStoreTeamRequests(actor: Actor, facts: StoreFacts): boolean {
  return mayEditStore(actor, facts);
}

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

/** Accepting or declining an application changes the team, which is the store's editors' call. */
export function mayDecideStoreTeamRequests(actor: Actor, facts: StoreFacts): boolean {
  return mayEditStore(actor, facts);
}

/**
 * An applicant's distance to the store hints at where they live. Those who organise the store's
 * pickups on the spot need it to judge an application; orga's administrative access to the list
 * does not, so orga without a local role sees no distance.
 */
export function mayReadApplicantDistance(_actor: Actor, facts: StoreFacts): boolean {
  return facts.isStoreManager || facts.holdsStoresCoordinationDuty;
}

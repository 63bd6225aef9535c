import { Role } from '../enums.ts';
import { type Actor, hasRoleAtLeast, isOrga } from './actor.ts';

export interface ChainDetailFacts {
  /** Member of the store-chain working group (332). */
  readonly isStoreChainGroupMember: boolean;
  /** Key account manager of this chain. */
  readonly isChainKam: boolean;
}

export interface ChainEditFacts {
  /** Admin of the store-chain working group (332). */
  readonly isStoreChainGroupAdmin: boolean;
  /** Key account manager of this chain. */
  readonly isChainKam: boolean;
}

export function mayReadChain(actor: Actor): boolean {
  return hasRoleAtLeast(actor, Role.Foodsaver);
}

/**
 * Store counts, notes, the forum thread and the region are the chain team's working material
 * (negotiation state with the company); other readers get them as null.
 */
export function maySeeChainDetails(actor: Actor, facts: ChainDetailFacts): boolean {
  return isOrga(actor) || facts.isStoreChainGroupMember || facts.isChainKam;
}

export function mayEditChain(actor: Actor, facts: ChainEditFacts): boolean {
  return isOrga(actor) || facts.isStoreChainGroupAdmin || facts.isChainKam;
}

/** A KAM must not appoint or remove KAMs, their own chain's included. */
export function mayChangeChainKams(
  actor: Actor,
  facts: Pick<ChainEditFacts, 'isStoreChainGroupAdmin'>,
): boolean {
  return isOrga(actor) || facts.isStoreChainGroupAdmin;
}

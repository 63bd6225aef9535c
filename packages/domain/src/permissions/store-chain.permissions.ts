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
 * Store counts, notes, the forum thread, the region and the KAMs are the chain team's working
 * material (negotiation state with the company); other readers get them as null. Only for
 * those who may read the chain at all.
 */
export function maySeeChainDetails(actor: Actor, facts: ChainDetailFacts): boolean {
  return (
    mayReadChain(actor) && (isOrga(actor) || facts.isStoreChainGroupMember || facts.isChainKam)
  );
}

/**
 * An editor must also be allowed to read the chain: the update answers with the whole record,
 * and a foodsharer (who may not read chains) must not learn or change it by editing.
 */
export function mayEditChain(actor: Actor, facts: ChainEditFacts): boolean {
  return mayReadChain(actor) && (isOrga(actor) || facts.isStoreChainGroupAdmin || facts.isChainKam);
}

/** A KAM must not appoint or remove KAMs, their own chain's included. */
export function mayChangeChainKams(
  actor: Actor,
  facts: Pick<ChainEditFacts, 'isStoreChainGroupAdmin'>,
): boolean {
  return mayReadChain(actor) && (isOrga(actor) || facts.isStoreChainGroupAdmin);
}

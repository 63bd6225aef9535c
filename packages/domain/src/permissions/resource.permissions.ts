import type { Actor } from './actor.ts';

/** Lending lists stay short so that each entry is something the owner really offers. */
export const MAX_RESOURCES_PER_USER = 10;

export interface ResourceVisibilityFacts {
  readonly ownerId: number;
  readonly isPrivate: boolean;
  /** The actor is a buddy of the owner. */
  readonly isBuddyOfOwner: boolean;
}

/** A private resource is shown to the owner's buddies only. */
export function maySeeResource(actor: Actor, facts: ResourceVisibilityFacts): boolean {
  return actor.id === facts.ownerId || !facts.isPrivate || facts.isBuddyOfOwner;
}

export function mayAddResource(
  _actor: Actor,
  facts: { readonly ownResourceCount: number },
): boolean {
  return facts.ownResourceCount < MAX_RESOURCES_PER_USER;
}

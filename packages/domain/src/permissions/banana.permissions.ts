import { type Actor, allow, type Decision, isVerified, refuse } from './actor.ts';

export interface BananaDeleteFacts {
  readonly recipientId: number;
  readonly senderId: number;
  /** Admin of the IT support working group (387). */
  readonly isItSupportAdmin: boolean;
}

/** Either side of a banana may withdraw it; IT support removes abusive ones. */
export function mayDeleteBanana(actor: Actor, facts: BananaDeleteFacts): boolean {
  return actor.id === facts.recipientId || actor.id === facts.senderId || facts.isItSupportAdmin;
}

export type BananaRefusal = 'BANANA_FOR_SELF' | 'BANANA_USER_NOT_VERIFIED' | 'BANANA_ALREADY_GIVEN';

export interface BananaGiveFacts {
  /** The recipient's user record; an orga recipient counts as verified. */
  readonly recipient: Actor;
  /** The actor has already given this recipient a banana. */
  readonly alreadyGiven: boolean;
}

/**
 * A banana vouches for someone's reliability, so only verified users give and receive them,
 * nobody vouches for themselves, and one sender vouches for one recipient once. Every refusal
 * is a 403.
 */
export function mayGiveBanana(actor: Actor, facts: BananaGiveFacts): Decision<BananaRefusal> {
  if (actor.id === facts.recipient.id) return refuse('BANANA_FOR_SELF');
  if (!isVerified(actor) || !isVerified(facts.recipient)) return refuse('BANANA_USER_NOT_VERIFIED');
  if (facts.alreadyGiven) return refuse('BANANA_ALREADY_GIVEN');
  return allow;
}

import type { Actor } from './actor.ts';

export interface PassportFacts {
  /** The user the passport is for. */
  readonly userId: number;
}

/**
 * A passport identifies its holder to store staff during pickups, so only a user whose
 * identity was checked (the verified flag itself) gets one, and only for themselves. Orga
 * counts as verified elsewhere, but a card vouches for a checked identity, which a role is not.
 */
export function mayCreatePassport(actor: Actor, facts: PassportFacts): boolean {
  return actor.verified && actor.id === facts.userId;
}

import { type Actor, isVerified } from './actor.ts';

export interface PassportFacts {
  /** The user the passport is for. */
  readonly userId: number;
}

/**
 * A passport identifies its holder to store staff during pickups, so only a verified user
 * gets one, and only for themselves.
 */
export function mayCreatePassport(actor: Actor, facts: PassportFacts): boolean {
  return isVerified(actor) && actor.id === facts.userId;
}

import { Role } from '../enums.ts';

/** The logged-in user a permission is decided for. */
export interface Actor {
  readonly id: number;
  readonly role: Role;
  readonly verified: boolean;
}

/**
 * The answer of a rule that can be refused for more than one reason; the reason is a stable
 * SCREAMING_SNAKE code a route can put into the problem body unchanged.
 */
export type Decision<Reason extends string> =
  { readonly allowed: true } | { readonly allowed: false; readonly reason: Reason };

export const allow = { allowed: true } as const;

export function refuse<Reason extends string>(reason: Reason): Decision<Reason> {
  return { allowed: false, reason };
}

/** Roles are ordered: a higher role includes every lower one. */
export function hasRoleAtLeast(actor: Pick<Actor, 'role'>, role: Role): boolean {
  return actor.role >= role;
}

export function isOrga(actor: Pick<Actor, 'role'>): boolean {
  return hasRoleAtLeast(actor, Role.Orga);
}

/** Organisation staff count as verified whatever their flag says. */
export function isVerified(actor: Pick<Actor, 'role' | 'verified'>): boolean {
  return actor.verified || isOrga(actor);
}

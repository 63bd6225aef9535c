import { Role } from '../../enums.ts';
import type { Actor } from '../actor.ts';

export const ACTOR_ID = 100;
export const OTHER_USER_ID = 200;

export const ALL_ROLES: readonly Role[] = [
  Role.Foodsharer,
  Role.Foodsaver,
  Role.StoreManager,
  Role.Ambassador,
  Role.Orga,
];
export const NO_ROLE: readonly Role[] = [];

const ROLE_NAMES: Readonly<Record<Role, string>> = {
  [Role.Foodsharer]: 'foodsharer',
  [Role.Foodsaver]: 'foodsaver',
  [Role.StoreManager]: 'store manager',
  [Role.Ambassador]: 'ambassador',
  [Role.Orga]: 'orga',
};

export function actorWith(role: Role, verified = true, id = ACTOR_ID): Actor {
  return { id, role, verified };
}

export function describeActor(actor: Actor): string {
  return `${actor.verified ? 'verified' : 'unverified'} ${ROLE_NAMES[actor.role]}`;
}

/** The roles allowed, the same for verified and unverified actors or given for each. */
export type Allowed =
  readonly Role[] | { readonly verified: readonly Role[]; readonly unverified: readonly Role[] };

export type Row<Facts> = [who: string, actor: Actor, facts: Facts, expected: boolean];

/** One row for each role, verified and unverified, under one relation to the target. */
export function forEveryActor<Facts>(
  relation: string,
  facts: Facts,
  allowed: Allowed,
  id = ACTOR_ID,
): Row<Facts>[] {
  return ALL_ROLES.flatMap((role) =>
    [true, false].map((verified): Row<Facts> => {
      const roles = isPerFlag(allowed) ? allowed[verified ? 'verified' : 'unverified'] : allowed;
      const expected = roles.includes(role);
      const actor = actorWith(role, verified, id);
      const verdict = expected ? 'allowed' : 'refused';
      return [`${describeActor(actor)}, ${relation}: ${verdict}`, actor, facts, expected];
    }),
  );
}

function isPerFlag(
  allowed: Allowed,
): allowed is { readonly verified: readonly Role[]; readonly unverified: readonly Role[] } {
  return !Array.isArray(allowed);
}

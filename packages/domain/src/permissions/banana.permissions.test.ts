import { describe, expect, it } from 'vitest';
import { Role } from '../enums.ts';
import type { Actor, Decision } from './actor.ts';
import { type BananaRefusal, mayDeleteBanana, mayGiveBanana } from './banana.permissions.ts';
import {
  ACTOR_ID,
  ALL_ROLES,
  NO_ROLE,
  OTHER_USER_ID,
  actorWith,
  forEveryActor,
  type Allowed,
} from './test-support/actor-matrix.ts';

const THIRD_USER_ID = 300;

describe('mayDeleteBanana', () => {
  it.each([
    ...forEveryActor(
      'recipient of the banana',
      { recipientId: ACTOR_ID, senderId: OTHER_USER_ID, isItSupportAdmin: false },
      ALL_ROLES,
    ),
    ...forEveryActor(
      'sender of the banana',
      { recipientId: OTHER_USER_ID, senderId: ACTOR_ID, isItSupportAdmin: false },
      ALL_ROLES,
    ),
    ...forEveryActor(
      'IT support admin, neither side',
      { recipientId: OTHER_USER_ID, senderId: THIRD_USER_ID, isItSupportAdmin: true },
      ALL_ROLES,
    ),
    ...forEveryActor(
      'neither side, not IT support',
      { recipientId: OTHER_USER_ID, senderId: THIRD_USER_ID, isItSupportAdmin: false },
      NO_ROLE,
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayDeleteBanana(actor, facts)).toBe(expected);
  });
});

type Expected = 'allowed' | BananaRefusal;

function rows<Facts>(
  relation: string,
  facts: Facts,
  allowed: Allowed,
  reason: BananaRefusal,
): [string, Actor, Facts, Expected][] {
  return forEveryActor(relation, facts, allowed).map(([who, actor, f, ok]) => [
    who,
    actor,
    f,
    ok ? 'allowed' : reason,
  ]);
}

function outcome(decision: Decision<BananaRefusal>): Expected {
  return decision.allowed ? 'allowed' : decision.reason;
}

const VERIFIED_ONLY = { verified: ALL_ROLES, unverified: [Role.Orga] };
const verifiedRecipient = actorWith(Role.Foodsaver, true, OTHER_USER_ID);

describe('mayGiveBanana', () => {
  it.each([
    ...rows(
      'verified recipient, none given yet',
      { recipient: verifiedRecipient, alreadyGiven: false },
      VERIFIED_ONLY,
      'BANANA_USER_NOT_VERIFIED',
    ),
    ...rows(
      'unverified orga recipient',
      { recipient: actorWith(Role.Orga, false, OTHER_USER_ID), alreadyGiven: false },
      VERIFIED_ONLY,
      'BANANA_USER_NOT_VERIFIED',
    ),
    ...rows(
      'unverified recipient',
      { recipient: actorWith(Role.Foodsaver, false, OTHER_USER_ID), alreadyGiven: false },
      NO_ROLE,
      'BANANA_USER_NOT_VERIFIED',
    ),
    ...rows(
      'to themself',
      { recipient: actorWith(Role.Foodsaver, true, ACTOR_ID), alreadyGiven: false },
      NO_ROLE,
      'BANANA_FOR_SELF',
    ),
    ...rows(
      'verified recipient, already given',
      { recipient: verifiedRecipient, alreadyGiven: true },
      NO_ROLE,
      'BANANA_ALREADY_GIVEN',
    ).filter(([, actor]) => actor.verified || actor.role === Role.Orga),
    ...rows(
      'verified recipient, already given',
      { recipient: verifiedRecipient, alreadyGiven: true },
      NO_ROLE,
      'BANANA_USER_NOT_VERIFIED',
    ).filter(([, actor]) => !actor.verified && actor.role !== Role.Orga),
  ])('%s', (_who, actor, facts, expected) => {
    expect(outcome(mayGiveBanana(actor, facts))).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { mayAddResource, maySeeResource } from './resource.permissions.ts';
import {
  ACTOR_ID,
  ALL_ROLES,
  NO_ROLE,
  OTHER_USER_ID,
  forEveryActor,
} from './test-support/actor-matrix.ts';

describe('maySeeResource', () => {
  it.each([
    ...forEveryActor(
      'own private resource',
      { ownerId: ACTOR_ID, isPrivate: true, isBuddyOfOwner: false },
      ALL_ROLES,
    ),
    ...forEveryActor(
      "someone's public resource",
      { ownerId: OTHER_USER_ID, isPrivate: false, isBuddyOfOwner: false },
      ALL_ROLES,
    ),
    ...forEveryActor(
      "a buddy's private resource",
      { ownerId: OTHER_USER_ID, isPrivate: true, isBuddyOfOwner: true },
      ALL_ROLES,
    ),
    ...forEveryActor(
      "a stranger's private resource (orga too)",
      { ownerId: OTHER_USER_ID, isPrivate: true, isBuddyOfOwner: false },
      NO_ROLE,
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(maySeeResource(actor, facts)).toBe(expected);
  });
});

describe('mayAddResource', () => {
  it.each([
    ...forEveryActor('no resources yet', { ownResourceCount: 0 }, ALL_ROLES),
    ...forEveryActor('nine resources', { ownResourceCount: 9 }, ALL_ROLES),
    ...forEveryActor('ten resources', { ownResourceCount: 10 }, NO_ROLE),
    ...forEveryActor('eleven resources', { ownResourceCount: 11 }, NO_ROLE),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayAddResource(actor, facts)).toBe(expected);
  });
});

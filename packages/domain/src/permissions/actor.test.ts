import { describe, expect, it } from 'vitest';
import { Role } from '../enums.ts';
import { hasRoleAtLeast, isOrga, isVerified } from './actor.ts';
import { ALL_ROLES, forEveryActor } from './test-support/actor-matrix.ts';

describe('hasRoleAtLeast', () => {
  it.each([
    ...forEveryActor('at least foodsharer', Role.Foodsharer, ALL_ROLES),
    ...forEveryActor('at least foodsaver', Role.Foodsaver, [
      Role.Foodsaver,
      Role.StoreManager,
      Role.Ambassador,
      Role.Orga,
    ]),
    ...forEveryActor('at least store manager', Role.StoreManager, [
      Role.StoreManager,
      Role.Ambassador,
      Role.Orga,
    ]),
    ...forEveryActor('at least ambassador', Role.Ambassador, [Role.Ambassador, Role.Orga]),
    ...forEveryActor('at least orga', Role.Orga, [Role.Orga]),
  ])('%s', (_who, actor, role, expected) => {
    expect(hasRoleAtLeast(actor, role)).toBe(expected);
  });
});

describe('isOrga', () => {
  it.each(forEveryActor('orga', undefined, [Role.Orga]))('%s', (_who, actor, _facts, expected) => {
    expect(isOrga(actor)).toBe(expected);
  });
});

describe('isVerified', () => {
  it.each(forEveryActor('verified', undefined, { verified: ALL_ROLES, unverified: [Role.Orga] }))(
    '%s',
    (_who, actor, _facts, expected) => {
      expect(isVerified(actor)).toBe(expected);
    },
  );
});

import { describe, expect, it } from 'vitest';
import { Role } from '../enums.ts';
import {
  mayDecideStoreTeamRequests,
  mayEditStore,
  mayReadApplicantDistance,
  mayReadStoreLog,
  mayReadStoreTeamRequests,
} from './store.permissions.ts';
import { ALL_ROLES, forEveryActor, NO_ROLE } from './test-support/actor-matrix.ts';

const none = { isStoreManager: false, holdsStoresCoordinationDuty: false };

describe.each([
  ['mayEditStore', mayEditStore],
  ['mayReadStoreLog', mayReadStoreLog],
  ['mayReadStoreTeamRequests', mayReadStoreTeamRequests],
  ['mayDecideStoreTeamRequests', mayDecideStoreTeamRequests],
] as const)('%s', (_name, rule) => {
  it.each([
    ...forEveryActor('no relation (ambassador of another region, team member)', none, [Role.Orga]),
    ...forEveryActor('store manager of the store', { ...none, isStoreManager: true }, ALL_ROLES),
    ...forEveryActor(
      'holds the stores-coordination duty of the region',
      { ...none, holdsStoresCoordinationDuty: true },
      ALL_ROLES,
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(rule(actor, facts)).toBe(expected);
  });
});

describe('mayReadApplicantDistance', () => {
  it.each([
    ...forEveryActor(
      'no relation (orga by role alone, ambassador of another region)',
      none,
      NO_ROLE,
    ),
    ...forEveryActor('store manager of the store', { ...none, isStoreManager: true }, ALL_ROLES),
    ...forEveryActor(
      'holds the stores-coordination duty of the region',
      { ...none, holdsStoresCoordinationDuty: true },
      ALL_ROLES,
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayReadApplicantDistance(actor, facts)).toBe(expected);
  });
});

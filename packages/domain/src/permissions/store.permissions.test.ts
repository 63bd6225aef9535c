import { describe, expect, it } from 'vitest';
import { Role } from '../enums.ts';
import {
  mayDecideStoreTeamRequests,
  mayEditStore,
  mayReadStoreLog,
  mayReadStoreTeamRequests,
} from './store.permissions.ts';
import { forEveryActor } from './test-support/actor-matrix.ts';

/** The relation counts from the store-manager role up; below it only orga may. */
const FLOOR = [Role.StoreManager, Role.Ambassador, Role.Orga];

const none = { isStoreManager: false, holdsStoresCoordinationDuty: false };

describe.each([
  ['mayEditStore', mayEditStore],
  ['mayReadStoreLog', mayReadStoreLog],
  ['mayReadStoreTeamRequests', mayReadStoreTeamRequests],
  ['mayDecideStoreTeamRequests', mayDecideStoreTeamRequests],
] as const)('%s', (_name, rule) => {
  it.each([
    ...forEveryActor('no relation (ambassador of another region, team member)', none, [Role.Orga]),
    ...forEveryActor('store manager of the store', { ...none, isStoreManager: true }, FLOOR),
    ...forEveryActor(
      'holds the stores-coordination duty of the region',
      { ...none, holdsStoresCoordinationDuty: true },
      FLOOR,
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(rule(actor, facts)).toBe(expected);
  });
});

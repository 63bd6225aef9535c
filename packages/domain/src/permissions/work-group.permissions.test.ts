import { describe, expect, it } from 'vitest';
import { Role, WorkGroupFunction } from '../enums.ts';
import { ALL_ROLES, forEveryActor } from './test-support/actor-matrix.ts';
import {
  isRestrictedWorkGroupFunction,
  mayDeclineWorkGroupApplication,
} from './work-group.permissions.ts';

const RESTRICTED: readonly WorkGroupFunction[] = [
  WorkGroupFunction.Report,
  WorkGroupFunction.Arbitration,
  WorkGroupFunction.FoodsaverManagement,
  WorkGroupFunction.Board,
];

describe('isRestrictedWorkGroupFunction', () => {
  const table: [WorkGroupFunction | null, boolean][] = [
    [null, false],
    ...Object.values(WorkGroupFunction).map((fn): [WorkGroupFunction, boolean] => [
      fn,
      RESTRICTED.includes(fn),
    ]),
  ];
  it.each(table)('function %s restricted: %s', (fn, expected) => {
    expect(isRestrictedWorkGroupFunction(fn)).toBe(expected);
  });
});

describe('mayDeclineWorkGroupApplication', () => {
  it.each([
    ...forEveryActor(
      'admin of a group without function',
      { isGroupAdmin: true, groupFunction: null },
      ALL_ROLES,
    ),
    ...forEveryActor(
      'admin of the welcome group',
      { isGroupAdmin: true, groupFunction: WorkGroupFunction.Welcome },
      ALL_ROLES,
    ),
    ...RESTRICTED.flatMap((fn) =>
      forEveryActor(
        `admin of a restricted group (${fn})`,
        { isGroupAdmin: true, groupFunction: fn },
        [Role.Orga],
      ),
    ),
    ...forEveryActor('not admin of the group', { isGroupAdmin: false, groupFunction: null }, [
      Role.Orga,
    ]),
    ...forEveryActor(
      'not admin of a restricted group',
      { isGroupAdmin: false, groupFunction: WorkGroupFunction.Board },
      [Role.Orga],
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayDeclineWorkGroupApplication(actor, facts)).toBe(expected);
  });
});

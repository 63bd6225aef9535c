import { describe, expect, it } from 'vitest';
import { Role } from '../enums.ts';
import {
  mayChangeRegionOptions,
  mayReadRegionAdminView,
  mayReadRegionOptions,
  refusedRegionOptionKeys,
  regionOptionGroupsHeldBy,
} from './region.permissions.ts';
import { ALL_ROLES, NO_ROLE, forEveryActor } from './test-support/actor-matrix.ts';

const neither = { holdsReportDuty: false, holdsStoresCoordinationDuty: false };
const reportOnly = { holdsReportDuty: true, holdsStoresCoordinationDuty: false };
const pickupOnly = { holdsReportDuty: false, holdsStoresCoordinationDuty: true };
const both = { holdsReportDuty: true, holdsStoresCoordinationDuty: true };

describe('regionOptionGroupsHeldBy', () => {
  it.each([
    ...forEveryActor('holds neither duty (orga too)', neither, ALL_ROLES).map(
      ([who, actor, facts]) => [who, actor, facts, { report: false, pickupRule: false }] as const,
    ),
    ...forEveryActor('holds the report duty', reportOnly, ALL_ROLES).map(
      ([who, actor, facts]) => [who, actor, facts, { report: true, pickupRule: false }] as const,
    ),
    ...forEveryActor('holds the stores-coordination duty', pickupOnly, ALL_ROLES).map(
      ([who, actor, facts]) => [who, actor, facts, { report: false, pickupRule: true }] as const,
    ),
    ...forEveryActor('holds both duties', both, ALL_ROLES).map(
      ([who, actor, facts]) => [who, actor, facts, { report: true, pickupRule: true }] as const,
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(regionOptionGroupsHeldBy(actor, facts)).toEqual(expected);
  });
});

describe('mayChangeRegionOptions', () => {
  it.each([
    ...forEveryActor('holds neither duty', neither, NO_ROLE),
    ...forEveryActor('holds the report duty', reportOnly, ALL_ROLES),
    ...forEveryActor('holds the stores-coordination duty', pickupOnly, ALL_ROLES),
    ...forEveryActor('holds both duties', both, ALL_ROLES),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayChangeRegionOptions(actor, facts)).toBe(expected);
  });
});

describe('refusedRegionOptionKeys', () => {
  const reportKeys = ['enableReportButton', 'selectedReportReasonOptions'];
  const pickupKeys = ['regionPickupRuleActive', 'regionPickupRuleLimitDay'];
  it.each([
    ['report holder sends report keys', reportKeys, { report: true, pickupRule: false }, []],
    [
      'report holder sends pickup keys',
      [...reportKeys, ...pickupKeys],
      { report: true, pickupRule: false },
      pickupKeys,
    ],
    [
      'pickup holder sends report keys',
      reportKeys,
      { report: false, pickupRule: true },
      reportKeys,
    ],
    ['pickup holder sends pickup keys', pickupKeys, { report: false, pickupRule: true }, []],
    ['both sends all', [...reportKeys, ...pickupKeys], { report: true, pickupRule: true }, []],
    ['unknown keys are not this rule', ['colour'], { report: false, pickupRule: false }, []],
  ])('%s', (_label, keys, held, expected) => {
    expect(refusedRegionOptionKeys(keys, held)).toEqual(expected);
  });
});

describe('mayReadRegionAdminView', () => {
  it.each(forEveryActor('any region (ambassador of it too)', undefined, [Role.Orga]))(
    '%s',
    (_who, actor, _facts, expected) => {
      expect(mayReadRegionAdminView(actor)).toBe(expected);
    },
  );
});

describe('mayReadRegionOptions', () => {
  it.each([
    ...forEveryActor('holds neither duty', neither, [Role.Orga]),
    ...forEveryActor('holds the report duty', reportOnly, ALL_ROLES),
    ...forEveryActor('holds the stores-coordination duty', pickupOnly, ALL_ROLES),
    ...forEveryActor('holds both duties', both, ALL_ROLES),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayReadRegionOptions(actor, facts)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { Role } from '../enums.ts';
import {
  mayChangeRegionOptions,
  mayReadRegionAdminView,
  mayReadRegionOptions,
  holdsRegionOptionKey,
  regionOptionGroupsHeldBy,
} from './region.permissions.ts';
import { ALL_ROLES, forEveryActor } from './test-support/actor-matrix.ts';

const neither = { holdsReportDuty: false, holdsStoresCoordinationDuty: false };
const reportOnly = { holdsReportDuty: true, holdsStoresCoordinationDuty: false };
const pickupOnly = { holdsReportDuty: false, holdsStoresCoordinationDuty: true };
const both = { holdsReportDuty: true, holdsStoresCoordinationDuty: true };

describe('regionOptionGroupsHeldBy', () => {
  const groups = (report: boolean, pickupRule: boolean) => ({ report, pickupRule });
  // Orga holds both duties everywhere; anybody else exactly the duties they hold.
  const heldBy = (actor: { role: Role }, report: boolean, pickupRule: boolean) =>
    actor.role === Role.Orga ? groups(true, true) : groups(report, pickupRule);
  it.each([
    ...forEveryActor('holds neither duty', neither, ALL_ROLES).map(
      ([who, actor, facts]) => [who, actor, facts, heldBy(actor, false, false)] as const,
    ),
    ...forEveryActor('holds the report duty', reportOnly, ALL_ROLES).map(
      ([who, actor, facts]) => [who, actor, facts, heldBy(actor, true, false)] as const,
    ),
    ...forEveryActor('holds the stores-coordination duty', pickupOnly, ALL_ROLES).map(
      ([who, actor, facts]) => [who, actor, facts, heldBy(actor, false, true)] as const,
    ),
    ...forEveryActor('holds both duties', both, ALL_ROLES).map(
      ([who, actor, facts]) => [who, actor, facts, groups(true, true)] as const,
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(regionOptionGroupsHeldBy(actor, facts)).toEqual(expected);
  });
});

describe('mayChangeRegionOptions', () => {
  it.each([
    ...forEveryActor('holds neither duty', neither, [Role.Orga]),
    ...forEveryActor('holds the report duty', reportOnly, ALL_ROLES),
    ...forEveryActor('holds the stores-coordination duty', pickupOnly, ALL_ROLES),
    ...forEveryActor('holds both duties', both, ALL_ROLES),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayChangeRegionOptions(actor, facts)).toBe(expected);
  });
});

describe('holdsRegionOptionKey', () => {
  const report = { report: true, pickupRule: false };
  const pickup = { report: false, pickupRule: true };
  it.each([
    ['a report key, report held', 'enableReportButton', report, true],
    ['a report key, pickup rule held', 'selectedReportReasonOptions', pickup, false],
    ['a pickup key, pickup rule held', 'regionPickupRuleLimitDay', pickup, true],
    ['a pickup key, report held', 'regionPickupRuleActive', report, false],
    [
      'a key of neither group is not this rule',
      'colour',
      { report: false, pickupRule: false },
      true,
    ],
  ])('%s', (_label, key, held, expected) => {
    expect(holdsRegionOptionKey(key, held)).toBe(expected);
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

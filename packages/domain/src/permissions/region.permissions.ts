import { type Actor, isOrga } from './actor.ts';

export interface RegionOptionFacts {
  /**
   * The actor holds the region's report duty: admin of its report (function 5) working group,
   * or its ambassador when it has none (see `holdsRegionDuty`).
   */
  readonly holdsReportDuty: boolean;
  /** Likewise for the stores-coordination (function 4) duty. */
  readonly holdsStoresCoordinationDuty: boolean;
}

export interface RegionOptionGroups {
  readonly report: boolean;
  readonly pickupRule: boolean;
}

export const REPORT_OPTION_KEYS = [
  'enableReportButton',
  'enableMediationButton',
  'selectedReportReasonOptions',
  'enableReportReasonOther',
] as const;

export const PICKUP_RULE_OPTION_KEYS = [
  'regionPickupRuleActive',
  'regionPickupRuleTimespan',
  'regionPickupRuleLimit',
  'regionPickupRuleLimitDay',
  'regionPickupRuleInactive',
] as const;

export type RegionOptionKey =
  (typeof REPORT_OPTION_KEYS)[number] | (typeof PICKUP_RULE_OPTION_KEYS)[number];

/**
 * Each option group belongs to the duty it configures, so orga status alone grants neither:
 * the report team decides how members report, the stores coordination how pickups are limited.
 */
export function regionOptionGroupsHeldBy(
  _actor: Actor,
  facts: RegionOptionFacts,
): RegionOptionGroups {
  return { report: facts.holdsReportDuty, pickupRule: facts.holdsStoresCoordinationDuty };
}

/** Holding neither group is a 403 before the body is looked at. */
export function mayChangeRegionOptions(actor: Actor, facts: RegionOptionFacts): boolean {
  const held = regionOptionGroupsHeldBy(actor, facts);
  return held.report || held.pickupRule;
}

/** The keys of `keys` that belong to a group the caller does not hold; any of them is a 403. */
export function refusedRegionOptionKeys(
  keys: Iterable<string>,
  held: RegionOptionGroups,
): RegionOptionKey[] {
  const refused: RegionOptionKey[] = [];
  for (const key of keys) {
    if (!held.report && isOneOf(REPORT_OPTION_KEYS, key)) refused.push(key);
    if (!held.pickupRule && isOneOf(PICKUP_RULE_OPTION_KEYS, key)) refused.push(key);
  }
  return refused;
}

function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

/** The administrative view of a region (admins, mailbox, options) is for organisation staff. */
export function mayReadRegionAdminView(actor: Actor): boolean {
  return isOrga(actor);
}

/**
 * The options are part of the administrative view, so orga reads them (without setting any);
 * a holder of either duty reads all of them, the other group's included, to see the region's
 * whole configuration before changing their part.
 */
export function mayReadRegionOptions(actor: Actor, facts: RegionOptionFacts): boolean {
  return mayReadRegionAdminView(actor) || mayChangeRegionOptions(actor, facts);
}

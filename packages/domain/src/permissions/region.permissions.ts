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
 * Each option group belongs to the duty it configures: the report team decides how members
 * report, the stores coordination how pickups are limited. Orga holds both duties everywhere.
 */
export function regionOptionGroupsHeldBy(
  actor: Actor,
  facts: RegionOptionFacts,
): RegionOptionGroups {
  if (isOrga(actor)) return { report: true, pickupRule: true };
  return { report: facts.holdsReportDuty, pickupRule: facts.holdsStoresCoordinationDuty };
}

/** Holding neither group is a 403 before the body is looked at. */
export function mayChangeRegionOptions(actor: Actor, facts: RegionOptionFacts): boolean {
  const held = regionOptionGroupsHeldBy(actor, facts);
  return held.report || held.pickupRule;
}

/**
 * Whether the holder of `held` sets option `key`. A key of a group they do not hold is skipped,
 * not refused: the platform's options page posts every key, whichever part the caller may
 * change. A key that is no option is not this rule's business.
 */
export function holdsRegionOptionKey(key: string, held: RegionOptionGroups): boolean {
  if (isOneOf(REPORT_OPTION_KEYS, key)) return held.report;
  if (isOneOf(PICKUP_RULE_OPTION_KEYS, key)) return held.pickupRule;
  return true;
}

function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

/** The administrative view of a region (admins, mailbox, options) is for organisation staff. */
export function mayReadRegionAdminView(actor: Actor): boolean {
  return isOrga(actor);
}

/**
 * The options are part of the administrative view, so orga reads them; a holder of either
 * duty reads all of them, the other group's included, to see the region's
 * whole configuration before changing their part.
 */
export function mayReadRegionOptions(actor: Actor, facts: RegionOptionFacts): boolean {
  return mayReadRegionAdminView(actor) || mayChangeRegionOptions(actor, facts);
}

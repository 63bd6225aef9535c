import {
  type Actor,
  type EntityManager,
  holdsRegionDuty,
  mayChangeRegionOptions,
  mayReadRegionOptions,
  holdsRegionOptionKey,
  type RegionOptionFacts,
  regionOptionGroupsHeldBy,
  runSql,
} from '@foodshare/domain';
import type {
  RegionOptionPermissions,
  RegionOptions,
  RegionOptionsBody,
  RegionOptionsRead,
} from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import {
  keepsPickupRule,
  OPTION_KEYS,
  pickupRuleStoresOf,
  pickupRuleStoresQuery,
  regionOptionsOf,
  type OptionStateRow,
  regionOptionStateQuery,
  saveOptionsQuery,
  storedOptionsOf,
  storedOptionsQuery,
} from './regions.sql.ts';

/** A region without an options row has these (docs/domain.md §3.15, the table's defaults). */
export const DEFAULT_REGION_OPTIONS: RegionOptions = {
  enableReportButton: false,
  enableMediationButton: false,
  selectedReportReasonOptions: 1,
  enableReportReasonOther: true,
  regionPickupRuleActive: false,
  regionPickupRuleTimespan: 0,
  regionPickupRuleLimit: 0,
  regionPickupRuleLimitDay: 0,
  regionPickupRuleInactive: 0,
};

interface RegionOptionState {
  facts: RegionOptionFacts;
  options: RegionOptions;
  allowHidingInForum: boolean;
}

/**
 * Whether the actor holds the region's report and stores-coordination duties, and the stored
 * options, in one query; 404 for an unknown region. A duty lies with the working group under
 * the region that carries its function, else with the region's ambassadors.
 */
async function loadRegionOptionState(
  em: EntityManager,
  actor: Actor,
  regionId: number,
): Promise<RegionOptionState> {
  const [row] = await runSql(em, regionOptionStateQuery(actor.id, regionId));
  return optionStateOf(actor, row);
}

function optionStateOf(actor: Actor, row: OptionStateRow | undefined): RegionOptionState {
  if (!row) throw Problem.notFound('There is no region with this id.');
  const ambassadorIds = new Set(row.is_ambassador ? [actor.id] : []);
  const holders = (hasGroup: boolean, isAdmin: boolean) => ({
    delegateAdminIds: hasGroup ? new Set(isAdmin ? [actor.id] : []) : null,
    ambassadorIds,
  });
  const facts = {
    holdsReportDuty: holdsRegionDuty(actor, holders(row.has_report_group, row.is_report_admin)),
    holdsStoresCoordinationDuty: holdsRegionDuty(
      actor,
      holders(row.has_stores_group, row.is_stores_admin),
    ),
  };
  return {
    facts,
    options: storedOptionsOf(row, DEFAULT_REGION_OPTIONS),
    allowHidingInForum: row.allow_hiding_in_forum,
  };
}

export async function readRegionOptions(
  em: EntityManager,
  actor: Actor,
  regionId: number,
): Promise<RegionOptionsRead> {
  const { facts, options, allowHidingInForum } = await loadRegionOptionState(em, actor, regionId);
  if (!mayReadRegionOptions(actor, facts)) {
    throw Problem.forbidden(
      'REGION_OPTIONS_FORBIDDEN',
      "Only orga and the holders of the region's report or stores-coordination duty see its options.",
    );
  }
  return {
    ...options,
    isReportButtonEnabled: options.enableReportButton,
    isMediationButtonEnabled: options.enableMediationButton,
    isReportReasonOtherEnabled: options.enableReportReasonOther,
    isRegionPickupRuleActive: options.regionPickupRuleActive,
    regionPickupRuleTimespanDays: options.regionPickupRuleTimespan,
    regionPickupRuleLimitNumber: options.regionPickupRuleLimit,
    regionPickupRuleLimitDayNumber: options.regionPickupRuleLimitDay,
    regionPickupRuleInactiveHours: options.regionPickupRuleInactive,
    allowHidingInForum,
  };
}

/**
 * Which option groups the caller may set, as the platform's options page asks before it
 * enables its fields; like the platform, any logged-in user may ask (the answer is about
 * themselves), and learns the region's stores that follow its pickup rule.
 */
export async function readRegionOptionPermissions(
  em: EntityManager,
  actor: Actor,
  regionId: number,
): Promise<RegionOptionPermissions> {
  const { facts } = await loadRegionOptionState(em, actor, regionId);
  const held = regionOptionGroupsHeldBy(actor, facts);
  const stores = await runSql(em, pickupRuleStoresQuery(regionId));
  return {
    maySetRegionOptionsReportButtons: held.report,
    maySetRegionOptionsRegionPickupRule: held.pickupRule,
    regionPickupRuleActiveStoreList: pickupRuleStoresOf(stores),
  };
}

/** A caller who may set a region's options, as `checkRegionOptionsHolder` found them. */
export interface RegionOptionsHolder {
  regionId: number;
  options: RegionOptions;
  /** Whether the caller holds the option key `key` (its group's duty). */
  holdsKey(key: string): boolean;
}

/**
 * The route's permission check, before the body is validated: 404 for an unknown region, 403
 * unless the caller holds the report or the stores-coordination duty.
 */
export async function checkRegionOptionsHolder(
  em: EntityManager,
  actor: Actor,
  regionId: number,
): Promise<RegionOptionsHolder> {
  const { facts, options } = await loadRegionOptionState(em, actor, regionId);
  if (!mayChangeRegionOptions(actor, facts)) {
    throw Problem.forbidden(
      'REGION_OPTIONS_FORBIDDEN',
      "Only orga and the holders of the region's report or stores-coordination duty set its options.",
    );
  }
  const held = regionOptionGroupsHeldBy(actor, facts);
  return { regionId, options, holdsKey: (key) => holdsRegionOptionKey(key, held) };
}

/**
 * Sets the given options and returns all of them. Each option group belongs to one of the
 * holder's duties; the route dropped the keys of a group the caller does not hold before the
 * body was validated. `namesAnOption`: the body named an option, held or not; one that names
 * none is a 400. `regionPickupRuleLimitDay` may not exceed the limit
 * that results from the request and the stored options together (400); the write enforces it
 * (saveOptionsQuery), so two concurrent requests cannot together break it.
 */
export async function updateRegionOptions(
  em: EntityManager,
  holder: RegionOptionsHolder,
  body: RegionOptionsBody,
  namesAnOption: boolean,
): Promise<RegionOptions> {
  const { regionId, options } = holder;
  if (!namesAnOption) throw Problem.badRequest('NO_OPTIONS_GIVEN', 'Name at least one option.');
  const keys = OPTION_KEYS.filter((key) => body[key] !== undefined);
  if (keys.length === 0) return options;

  const changes = pickDefined(body, keys);
  const insertable = keepsPickupRule({ ...DEFAULT_REGION_OPTIONS, ...changes });
  for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt += 1) {
    const [saved] = await runSql(em, saveOptionsQuery(regionId, changes, insertable));
    if (saved) return regionOptionsOf(saved);
    // Refused by the rule as the write saw the row; the detail names the values as they are
    // now. A concurrent write may have changed them in between (a first options row stored
    // while this update found none): where they keep the rule now, the write is tried again.
    const [stored] = await runSql(em, storedOptionsQuery(regionId));
    const merged = { ...(stored ? regionOptionsOf(stored) : DEFAULT_REGION_OPTIONS), ...changes };
    if (!keepsPickupRule(merged)) throw pickupRuleBroken(merged);
  }
  throw Problem.databaseConflict();
}

/** Writes of one region's options that race this one can refuse it this often in a row. */
const SAVE_ATTEMPTS = 3;

function pickupRuleBroken(merged: RegionOptions): Problem {
  return new Problem({
    status: 400,
    code: 'PICKUP_RULE_LIMIT_DAY_ABOVE_LIMIT',
    title: 'Bad Request',
    detail: `The pickups per day (${merged.regionPickupRuleLimitDay}) may not exceed the pickups per timespan (${merged.regionPickupRuleLimit}).`,
    errors: [
      {
        path: '/body/regionPickupRuleLimitDay',
        message: 'must not exceed regionPickupRuleLimit',
      },
    ],
  });
}

function pickDefined(
  body: RegionOptionsBody,
  keys: (keyof RegionOptions)[],
): Partial<RegionOptions> {
  return Object.fromEntries(keys.map((key) => [key, body[key]]));
}

import {
  type Actor,
  type EntityManager,
  holdsRegionDuty,
  mayChangeRegionOptions,
  mayReadRegionOptions,
  holdsRegionOptionKey,
  type RegionOptionFacts,
  regionOptionGroupsHeldBy,
  WorkGroupFunction,
  RegionType,
} from '@foodshare/domain';
import type {
  RegionOptionPermissions,
  RegionOptions,
  RegionOptionsBody,
  RegionOptionsRead,
} from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import type { PendingBody } from '../../shared/pending-body.ts';

/** The column of each option; the only names ever put into the SQL text. */
const COLUMNS: Readonly<Record<keyof RegionOptions, string>> = {
  enableReportButton: 'enable_report_button',
  enableMediationButton: 'enable_mediation_button',
  selectedReportReasonOptions: 'selected_report_reason_options',
  enableReportReasonOther: 'enable_report_reason_other',
  regionPickupRuleActive: 'region_pickup_rule_active',
  regionPickupRuleTimespan: 'region_pickup_rule_timespan',
  regionPickupRuleLimit: 'region_pickup_rule_limit',
  regionPickupRuleLimitDay: 'region_pickup_rule_limit_day',
  regionPickupRuleInactive: 'region_pickup_rule_inactive',
};
const OPTION_KEYS = Object.keys(COLUMNS) as (keyof RegionOptions)[];
const SELECT_OPTIONS = OPTION_KEYS.map((key) => `o.${COLUMNS[key]} as "${key}"`).join(', ');

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

interface DutyRow {
  is_ambassador: boolean;
  has_report_group: boolean;
  is_report_admin: boolean;
  has_stores_group: boolean;
  is_stores_admin: boolean;
  has_options: boolean;
  allow_hiding_in_forum: boolean;
}

type OptionsRow = DutyRow & { [K in keyof RegionOptions]: RegionOptions[K] | null };

/**
 * Whether the actor holds the region's report and stores-coordination duties, and the stored
 * options, in one query; 404 for an unknown region. A duty lies with the working group under
 * the region that carries its function, else with the region's ambassadors.
 */
async function loadRegionOptionState(
  em: EntityManager,
  actor: Actor,
  regionId: number,
): Promise<{ facts: RegionOptionFacts; options: RegionOptions; allowHidingInForum: boolean }> {
  const delegate = (fn: number, alias: string) => `
      exists (select 1 from regions g
               where g.parent_id = r.id and g.type = ${RegionType.WorkingGroup}
                 and g.workgroup_function = ${fn}) as has_${alias}_group,
      exists (select 1 from regions g join region_admins a on a.region_id = g.id
               where g.parent_id = r.id and g.type = ${RegionType.WorkingGroup}
                 and g.workgroup_function = ${fn} and a.user_id = ?) as is_${alias}_admin`;
  const rows = await em.execute<OptionsRow[]>(
    `select exists (select 1 from region_admins a where a.region_id = r.id and a.user_id = ?)
              as is_ambassador,
            ${delegate(WorkGroupFunction.Report, 'report')},
            ${delegate(WorkGroupFunction.StoresCoordination, 'stores')},
            o.region_id is not null as has_options, r.allow_hiding_in_forum,
            ${SELECT_OPTIONS}
       from regions r
       left join region_options o on o.region_id = r.id
      where r.id = ?`,
    [actor.id, actor.id, actor.id, regionId],
  );
  const row = rows[0];
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
    options: row.has_options ? pickOptions(row) : DEFAULT_REGION_OPTIONS,
    allowHidingInForum: row.allow_hiding_in_forum,
  };
}

function pickOptions(row: Record<keyof RegionOptions, unknown>): RegionOptions {
  return Object.fromEntries(OPTION_KEYS.map((key) => [key, row[key]])) as RegionOptions;
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
  const stores = await em.execute<{ storeId: number; storeName: string }[]>(
    `select s.id as "storeId", s.name as "storeName" from stores s
      where s.region_id = ? and s.region_pickup_rule_active order by s.name, s.id`,
    [regionId],
  );
  return {
    maySetRegionOptionsReportButtons: held.report,
    maySetRegionOptionsRegionPickupRule: held.pickupRule,
    regionPickupRuleActiveStoreList: stores,
  };
}

/**
 * Sets the given options and returns all of them. The caller must hold the report or the
 * stores-coordination duty (403 before the body is judged); each option group belongs to one
 * of them, and a key of a group the caller does not hold is skipped while the rest is stored.
 * A body that names no option is a 400. `regionPickupRuleLimitDay` may not exceed the limit
 * that results from the request and the stored options together (400).
 */
export async function updateRegionOptions(
  em: EntityManager,
  actor: Actor,
  regionId: number,
  pending: PendingBody<RegionOptionsBody>,
): Promise<RegionOptions> {
  const { facts, options } = await loadRegionOptionState(em, actor, regionId);
  if (!mayChangeRegionOptions(actor, facts)) {
    throw Problem.forbidden(
      'REGION_OPTIONS_FORBIDDEN',
      "Only orga and the holders of the region's report or stores-coordination duty set its options.",
    );
  }
  const held = regionOptionGroupsHeldBy(actor, facts);
  let namesAnOption = false;
  const body = pending.validate((key) => {
    namesAnOption = true;
    return holdsRegionOptionKey(key, held);
  });
  if (!namesAnOption) throw Problem.badRequest('NO_OPTIONS_GIVEN', 'Name at least one option.');
  const keys = OPTION_KEYS.filter((key) => body[key] !== undefined);
  if (keys.length === 0) return options;

  return em.transactional(async (tx) => {
    // The row is locked from here to the commit, so that two requests cannot together break
    // the rule across fields that each of them keeps.
    await tx.execute(
      'insert into region_options (region_id) values (?) on conflict (region_id) do nothing',
      [regionId],
    );
    const locked = await tx.execute<Record<keyof RegionOptions, unknown>[]>(
      `select ${SELECT_OPTIONS} from region_options o where o.region_id = ? for update`,
      [regionId],
    );
    const merged = { ...pickOptions(locked[0]!), ...pickDefined(body, keys) };
    if (merged.regionPickupRuleLimitDay > merged.regionPickupRuleLimit) {
      throw new Problem({
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
    const updated = await tx.execute<Record<keyof RegionOptions, unknown>[]>(
      `update region_options o set ${keys.map((key) => `${COLUMNS[key]} = ?`).join(', ')}
        where o.region_id = ? returning ${SELECT_OPTIONS}`,
      [...keys.map((key) => merged[key]), regionId],
    );
    return pickOptions(updated[0]!);
  });
}

function pickDefined(
  body: RegionOptionsBody,
  keys: (keyof RegionOptions)[],
): Partial<RegionOptions> {
  return Object.fromEntries(keys.map((key) => [key, body[key]]));
}

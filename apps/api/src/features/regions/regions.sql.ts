import { RegionType, WorkGroupFunction } from '@foodshare/domain';
import type { Region, RegionOptionPermissions, RegionOptions } from '@foodshare/schemas';
import type { SqlQuery } from '@foodshare/domain';

interface RegionRow {
  id: number;
  name: string;
  type: Region['type'];
  admin_ids: number[];
  parent_id: number | null;
  master_id: number | null;
  mailbox: string | null;
  email_name: string | null;
  workgroup_function: number | null;
  allow_hiding_in_forum: boolean;
  timezone: string | null;
}

/** Only the returned columns, the admin ids aggregated in SQL; no row: no region. */
export function regionQuery(regionId: number): SqlQuery<RegionRow> {
  return {
    sql: `select r.id, r.name, r.type,
                 array(select a.user_id from region_admins a where a.region_id = r.id
                        order by a.user_id) as admin_ids,
                 r.parent_id, r.master_id, r.mailbox, r.email_name, r.workgroup_function,
                 r.allow_hiding_in_forum, r.timezone
            from regions r
           where r.id = ?`,
    params: [regionId],
  };
}

/** The platform's own client reads a missing reference as 0 and a missing text as empty. */
export function regionOf(row: RegionRow): Region {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    adminIds: row.admin_ids,
    parentId: row.parent_id ?? 0,
    masterId: row.master_id ?? 0,
    mailbox: row.mailbox ?? '',
    emailName: row.email_name ?? '',
    workgroupFunction: row.workgroup_function ?? 0,
    allowHidingInForum: row.allow_hiding_in_forum,
    timezone: row.timezone,
  };
}

/** The column of each option; the only names ever put into the SQL text. */
export const OPTION_COLUMNS = {
  enableReportButton: 'enable_report_button',
  enableMediationButton: 'enable_mediation_button',
  selectedReportReasonOptions: 'selected_report_reason_options',
  enableReportReasonOther: 'enable_report_reason_other',
  regionPickupRuleActive: 'region_pickup_rule_active',
  regionPickupRuleTimespan: 'region_pickup_rule_timespan',
  regionPickupRuleLimit: 'region_pickup_rule_limit',
  regionPickupRuleLimitDay: 'region_pickup_rule_limit_day',
  regionPickupRuleInactive: 'region_pickup_rule_inactive',
} as const satisfies Record<keyof RegionOptions, string>;

type OptionsRow = { [K in keyof RegionOptions as (typeof OPTION_COLUMNS)[K]]: RegionOptions[K] };

export const OPTION_KEYS = Object.keys(OPTION_COLUMNS) as (keyof RegionOptions)[];
const OPTIONS = OPTION_KEYS.map((key) => `o.${OPTION_COLUMNS[key]}`).join(', ');

export function regionOptionsOf(row: OptionsRow): RegionOptions {
  return Object.fromEntries(
    OPTION_KEYS.map((key) => [key, row[OPTION_COLUMNS[key]]]),
  ) as RegionOptions;
}

interface DutyRow {
  is_ambassador: boolean;
  has_report_group: boolean;
  is_report_admin: boolean;
  has_stores_group: boolean;
  is_stores_admin: boolean;
  has_options: boolean;
  allow_hiding_in_forum: boolean;
}

/** The option columns are null when the region has no options row (`has_options`). */
export type OptionStateRow = DutyRow & { [K in keyof OptionsRow]: OptionsRow[K] | null };

/** The stored options, or the defaults for a region without an options row. */
export function storedOptionsOf(row: OptionStateRow, defaults: RegionOptions): RegionOptions {
  return row.has_options ? regionOptionsOf(row as OptionsRow) : defaults;
}

/**
 * Whether the user holds the region's report and stores-coordination duties, and the stored
 * options; no row: no region. A duty lies with the working group under the region that carries
 * its function, else with the region's ambassadors.
 */
export function regionOptionStateQuery(userId: number, regionId: number): SqlQuery<OptionStateRow> {
  const delegate = (fn: number, alias: string) => `
      exists (select 1 from regions g
               where g.parent_id = r.id and g.type = ${RegionType.WorkingGroup}
                 and g.workgroup_function = ${fn}) as has_${alias}_group,
      exists (select 1 from regions g join region_admins a on a.region_id = g.id
               where g.parent_id = r.id and g.type = ${RegionType.WorkingGroup}
                 and g.workgroup_function = ${fn} and a.user_id = ?) as is_${alias}_admin`;
  return {
    sql: `select exists (select 1 from region_admins a where a.region_id = r.id and a.user_id = ?)
                   as is_ambassador,
                 ${delegate(WorkGroupFunction.Report, 'report')},
                 ${delegate(WorkGroupFunction.StoresCoordination, 'stores')},
                 o.region_id is not null as has_options, r.allow_hiding_in_forum,
                 ${OPTIONS}
            from regions r
            left join region_options o on o.region_id = r.id
           where r.id = ?`,
    params: [userId, userId, userId, regionId],
  };
}

interface PickupRuleStoreRow {
  id: number;
  name: string;
}

/** The region's stores that follow its pickup rule, by name. */
export function pickupRuleStoresQuery(regionId: number): SqlQuery<PickupRuleStoreRow> {
  return {
    sql: `select s.id, s.name from stores s
           where s.region_id = ? and s.region_pickup_rule_active order by s.name, s.id`,
    params: [regionId],
  };
}

export function pickupRuleStoresOf(
  rows: PickupRuleStoreRow[],
): RegionOptionPermissions['regionPickupRuleActiveStoreList'] {
  return rows.map((row) => ({ storeId: row.id, storeName: row.name }));
}

/** The region's pickup rule: the pickups per day at most the pickups per timespan. */
export function keepsPickupRule(options: RegionOptions): boolean {
  return options.regionPickupRuleLimitDay <= options.regionPickupRuleLimit;
}

/**
 * Stores `options` (key by key) and returns all of them, in one statement that takes the row's
 * lock only for its own run: no round trip to the service is made while the row is held, so
 * concurrent writers of one region queue for a statement, not for a transaction.
 *
 * The pickup rule (per day at most per timespan, counting the stored values) is the statement's
 * own condition. PostgreSQL evaluates it on the row version it writes, after waiting for a
 * concurrent writer of the row: two requests cannot together break it. No row back: the rule
 * would break. `insertable` says the defaults with `options` keep the rule: only then may a
 * region without an options row get one, so a refusal stores nothing, not even defaults.
 */
export function saveOptionsQuery(
  regionId: number,
  options: Partial<RegionOptions>,
  insertable: boolean,
): SqlQuery<OptionsRow> {
  const keys = OPTION_KEYS.filter((key) => options[key] !== undefined);
  const columns = keys.map((key) => OPTION_COLUMNS[key]);
  const values = keys.map((key) => options[key]);
  // The merged value of a rule column: the new one where the request gives it, else the row's.
  const merged = (key: 'regionPickupRuleLimit' | 'regionPickupRuleLimitDay', fresh: string) =>
    options[key] === undefined ? `o.${OPTION_COLUMNS[key]}` : fresh;
  if (insertable) {
    const excluded = (key: 'regionPickupRuleLimit' | 'regionPickupRuleLimitDay') =>
      merged(key, `excluded.${OPTION_COLUMNS[key]}`);
    return {
      sql: `insert into region_options as o (region_id, ${columns.join(', ')})
            values (?, ${columns.map(() => '?').join(', ')})
            on conflict (region_id) do update
               set ${columns.map((column) => `${column} = excluded.${column}`).join(', ')}
             where ${excluded('regionPickupRuleLimitDay')} <= ${excluded('regionPickupRuleLimit')}
            returning ${OPTIONS}`,
      params: [regionId, ...values],
    };
  }
  const ruleParams = (['regionPickupRuleLimitDay', 'regionPickupRuleLimit'] as const).flatMap(
    (key) => (options[key] === undefined ? [] : [options[key]]),
  );
  return {
    sql: `update region_options o set ${columns.map((column) => `${column} = ?`).join(', ')}
           where o.region_id = ?
             and ${merged('regionPickupRuleLimitDay', '?::int')} <= ${merged('regionPickupRuleLimit', '?::int')}
          returning ${OPTIONS}`,
    params: [...values, regionId, ...ruleParams],
  };
}

/** The region's stored options; no row: the region has none stored. */
export function storedOptionsQuery(regionId: number): SqlQuery<OptionsRow> {
  return {
    sql: `select ${OPTIONS} from region_options o where o.region_id = ?`,
    params: [regionId],
  };
}

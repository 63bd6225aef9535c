import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ApplyType, RegionType, type WorkGroupFunction } from '../enums.ts';
import { identityId } from './columns.ts';
import { SEARCH_INDEX_VERSION_TRIGGER } from './search-index-version.entity.ts';

/** A unit of the platform: a region of any level, or a working group (type 7). */
export const RegionEntity = defineEntity({
  name: 'Region',
  tableName: 'regions',
  properties: {
    id: identityId(),
    name: p.string().length(120),
    type: p.smallint().$type<RegionType>().default(RegionType.Undefined),
    parent: () => p.manyToOne(RegionEntity).ref().nullable().deleteRule('restrict').index(),
    master: () => p.manyToOne(RegionEntity).ref().nullable().deleteRule('set null').index(),
    mailbox: p.string().length(120).nullable(),
    emailName: p.string().length(120).nullable(),
    workgroupFunction: p.smallint().$type<WorkGroupFunction>().nullable(),
    applyType: p
      .smallint()
      .$type<ApplyType>()
      .default(ApplyType.ByApplication)
      .check('apply_type in (0, 2, 3)'),
    // Null means: inherit the parent's time zone.
    timezone: p.string().length(64).nullable(),
    allowHidingInForum: p.boolean().default(false),
  },
  checks: [
    { name: 'regions_type_check', expression: 'type >= 0 and type <= 9 and type <> 4' },
    {
      name: 'regions_workgroup_function_check',
      expression: 'workgroup_function >= 1 and workgroup_function <= 12',
    },
    {
      name: 'regions_workgroup_function_only_for_groups',
      expression: 'workgroup_function is null or type = 7',
    },
    { name: 'regions_not_own_parent', expression: 'parent_id <> id' },
  ],
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type RegionEntity = InferEntity<typeof RegionEntity>;

/** One row per region; a missing row means every option has its default. */
export const RegionOptionsEntity = defineEntity({
  name: 'RegionOptions',
  tableName: 'region_options',
  properties: {
    region: () => p.oneToOne(RegionEntity).ref().primary().owner().deleteRule('cascade'),
    enableReportButton: p.boolean().default(false),
    enableMediationButton: p.boolean().default(false),
    regionPickupRuleActive: p.boolean().default(false),
    // 0 until set; the services enforce the ranges of a set value (days 1-31, limit 1-14, ...).
    regionPickupRuleTimespan: p
      .smallint()
      .default(0)
      .check('region_pickup_rule_timespan >= 0 and region_pickup_rule_timespan <= 31'),
    regionPickupRuleLimit: p
      .smallint()
      .default(0)
      .check('region_pickup_rule_limit >= 0 and region_pickup_rule_limit <= 14'),
    regionPickupRuleLimitDay: p
      .smallint()
      .default(0)
      .check('region_pickup_rule_limit_day >= 0 and region_pickup_rule_limit_day <= 14'),
    regionPickupRuleInactive: p
      .smallint()
      .default(0)
      .check('region_pickup_rule_inactive >= 0 and region_pickup_rule_inactive <= 72'),
    selectedReportReasonOptions: p
      .smallint()
      .default(1)
      .check('selected_report_reason_options in (1, 2)'),
    enableReportReasonOther: p.boolean().default(true),
  },
});
export type RegionOptionsEntity = InferEntity<typeof RegionOptionsEntity>;

import { type Static, Type } from 'typebox';

/**
 * Every option of a region with its defaults filled in (buttons off, rule off, numbers 0,
 * reason options 1, other reason on). A number of 0 means "never set"; a set value lies in
 * the range RegionOptionsBody allows.
 */
export const RegionOptionsSchema = Type.Object(
  {
    enableReportButton: Type.Boolean(),
    enableMediationButton: Type.Boolean(),
    selectedReportReasonOptions: Type.Integer({ minimum: 1, maximum: 2 }),
    enableReportReasonOther: Type.Boolean(),
    regionPickupRuleActive: Type.Boolean(),
    regionPickupRuleTimespan: Type.Integer({ minimum: 0, maximum: 31, description: 'Days' }),
    regionPickupRuleLimit: Type.Integer({ minimum: 0, maximum: 14 }),
    regionPickupRuleLimitDay: Type.Integer({ minimum: 0, maximum: 14 }),
    regionPickupRuleInactive: Type.Integer({ minimum: 0, maximum: 72, description: 'Hours' }),
  },
  { title: 'RegionOptions' },
);
export type RegionOptions = Static<typeof RegionOptionsSchema>;

/**
 * What GET /api/region/{regionId}/options answers: the options under the names the POST takes,
 * and again under the names of the platform's own read (its RegionOptions model), which its
 * options page copies into its fields and its API test (canFetchRegionOptions) checks. Without
 * them the page would show the defaults and post them back on save.
 */
export const RegionOptionsReadSchema = Type.Object(
  {
    ...RegionOptionsSchema.properties,
    isReportButtonEnabled: Type.Boolean(),
    isMediationButtonEnabled: Type.Boolean(),
    isReportReasonOtherEnabled: Type.Boolean(),
    isRegionPickupRuleActive: Type.Boolean(),
    regionPickupRuleTimespanDays: RegionOptionsSchema.properties.regionPickupRuleTimespan,
    regionPickupRuleLimitNumber: RegionOptionsSchema.properties.regionPickupRuleLimit,
    regionPickupRuleLimitDayNumber: RegionOptionsSchema.properties.regionPickupRuleLimitDay,
    regionPickupRuleInactiveHours: RegionOptionsSchema.properties.regionPickupRuleInactive,
    allowHidingInForum: Type.Boolean({ description: "The region's own flag (row 1), read only" }),
  },
  { title: 'RegionOptionsRead' },
);
export type RegionOptionsRead = Static<typeof RegionOptionsReadSchema>;

/**
 * GET /api/region/{regionId}/options/permissions, which the platform's options page reads
 * beside the options: which of the two option groups the caller may set, and the region's
 * stores that follow its pickup rule (named as the platform names them).
 */
export const RegionOptionPermissionsSchema = Type.Object(
  {
    maySetRegionOptionsReportButtons: Type.Boolean(),
    maySetRegionOptionsRegionPickupRule: Type.Boolean(),
    regionPickupRuleActiveStoreList: Type.Array(
      Type.Object({ storeId: Type.Integer({ minimum: 1 }), storeName: Type.String() }),
    ),
  },
  { title: 'RegionOptionPermissions' },
);
export type RegionOptionPermissions = Static<typeof RegionOptionPermissionsSchema>;

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

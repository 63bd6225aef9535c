import { type Static, Type } from 'typebox';
import { Id, Nullable } from './common.schemas.ts';

/**
 * 1 city, 2 district, 3 region, 5 federal state, 6 country, 7 working group, 8 big city,
 * 9 part of town, 0 undefined (4 is unused).
 */
export const RegionTypeSchema = Type.Enum([0, 1, 2, 3, 5, 6, 7, 8, 9], { title: 'RegionType' });

export const WorkGroupFunctionSchema = Type.Integer({
  minimum: 1,
  maximum: 12,
  title: 'WorkGroupFunction',
});

/** The administrative view of a region (orga only). */
export const RegionSchema = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    type: RegionTypeSchema,
    adminIds: Type.Array(Id()),
    parentId: Nullable(Id({ description: 'null for the root of the tree' })),
    masterId: Nullable(Id()),
    mailbox: Nullable(Type.String()),
    emailName: Nullable(Type.String()),
    workgroupFunction: Nullable(WorkGroupFunctionSchema),
    allowHidingInForum: Type.Boolean(),
    timezone: Nullable(
      Type.String({
        pattern: '^[A-Za-z][A-Za-z_-]*(/[A-Za-z0-9_+-]+)+$',
        description: 'IANA name of the form Area/City; null inherits the parent region',
      }),
    ),
  },
  { title: 'Region' },
);
export type Region = Static<typeof RegionSchema>;

/**
 * Report options belong to the region's report duty, pickup-rule options to its
 * stores-coordination duty. `regionPickupRuleLimitDay` must not exceed
 * `regionPickupRuleLimit`: a rule across fields, checked by the service.
 */
export const RegionOptionsBodySchema = Type.Object(
  {
    enableReportButton: Type.Optional(Type.Boolean()),
    enableMediationButton: Type.Optional(Type.Boolean()),
    selectedReportReasonOptions: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
    enableReportReasonOther: Type.Optional(Type.Boolean()),
    regionPickupRuleActive: Type.Optional(Type.Boolean()),
    regionPickupRuleTimespan: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 31, description: 'Days' }),
    ),
    regionPickupRuleLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 14 })),
    regionPickupRuleLimitDay: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 14, description: 'At most regionPickupRuleLimit' }),
    ),
    regionPickupRuleInactive: Type.Optional(
      Type.Integer({ minimum: 4, maximum: 72, description: 'Hours' }),
    ),
  },
  { title: 'RegionOptionsBody', additionalProperties: false },
);
export type RegionOptionsBody = Static<typeof RegionOptionsBodySchema>;

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

/** A reference to another unit, 0 when there is none (the platform's convention). */
const UnitRef = (description: string) =>
  Type.Integer({ minimum: 0, maximum: 2147483647, description });

/**
 * The administrative view of a region (orga only). As on the platform, references without a
 * target are 0 and texts without a value empty; only the time zone is nullable.
 */
export const RegionSchema = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    type: RegionTypeSchema,
    adminIds: Type.Array(Id()),
    parentId: UnitRef('0 for the root of the tree'),
    masterId: UnitRef('0 when no unit governs it'),
    mailbox: Type.String({ description: 'Local part of its mailbox address; empty without one' }),
    emailName: Type.String({ description: 'Display name of its mails; empty without one' }),
    workgroupFunction: Type.Union([Type.Literal(0), WorkGroupFunctionSchema], {
      description: '0 for a unit without a working-group function',
    }),
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

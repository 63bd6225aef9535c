import { type Static, Type } from 'typebox';
import { DateTime, Id, Nullable } from './common.schemas.ts';
import { ReportUserSchema } from './user.schemas.ts';

export const REPORT_STATUS_PRESETS = [
  'to_do',
  'in_progress',
  'handed_over',
  'mediation',
  'follow_up_user',
  'reminder',
  'completed',
  'deleted',
] as const;

export const ReportConsequenceSchema = Type.Union(
  [
    Type.Literal('warning'),
    Type.Literal('yellow_card'),
    Type.Literal('yellow_red_card'),
    Type.Literal('red_card'),
  ],
  { title: 'ReportConsequence' },
);

export const ReportSchema = Type.Object(
  {
    id: Id(),
    message: Type.String(),
    reason: Type.String(),
    reportedAt: DateTime(),
    store: Nullable(Type.Object({ id: Id(), name: Type.String() })),
    // The report stays with the reported person when the reporter's account is deleted.
    reporter: Nullable(ReportUserSchema),
    reported: ReportUserSchema,
    forumThreadId: Nullable(Id()),
    // Free text on the reference platform; the presets are what the report team usually picks.
    status: Type.String({ examples: [...REPORT_STATUS_PRESETS] }),
    consequence: Nullable(ReportConsequenceSchema),
    reminderAt: Nullable(DateTime()),
    reportedRegionId: Nullable(Id()),
  },
  { title: 'Report' },
);
export type Report = Static<typeof ReportSchema>;

/** Newest first. */
export const ReportListSchema = Type.Array(ReportSchema, { title: 'ReportList' });
export type ReportList = Static<typeof ReportListSchema>;

import { type Static, Type } from 'typebox';
import { DateTime, Id, Nullable } from './common.schemas.ts';
import { ReportUserSchema } from './user.schemas.ts';

/** The report team's usual statuses, as the translation keys the platform stores. */
export const REPORT_STATUS_PRESETS = [
  'reports.statuses.to_do',
  'reports.statuses.in_progress',
  'reports.statuses.handed_over',
  'reports.statuses.mediation',
  'reports.statuses.follow_up_user',
  'reports.statuses.reminder',
  'reports.statuses.completed',
  'reports.statuses.deleted',
] as const;

export const ReportConsequenceSchema = Type.Union(
  [
    Type.Literal('reports.consequences.warning'),
    Type.Literal('reports.consequences.yellow_card'),
    Type.Literal('reports.consequences.yellow_red_card'),
    Type.Literal('reports.consequences.red_card'),
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
    // A translation key, or free text on the reference platform; null until the team sets one.
    status: Nullable(Type.String({ examples: [...REPORT_STATUS_PRESETS] })),
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

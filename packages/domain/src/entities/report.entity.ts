import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { type ReportConsequenceKey, ReportConsequenceKeys } from '../enums.ts';
import { identityId } from './columns.ts';
import { ForumThreadEntity } from './forum.entity.ts';
import { RegionEntity } from './region.entity.ts';
import { StoreEntity } from './store.entity.ts';
import { UserEntity } from './user.entity.ts';
import { orderedIndex } from './ordered-index.ts';

export const ReportEntity = defineEntity({
  name: 'Report',
  tableName: 'reports',
  properties: {
    id: identityId(),
    // A report is about the reported person and goes with them; the reporter's account may go alone.
    reporter: () => p.manyToOne(UserEntity).ref().nullable().deleteRule('set null'),
    reported: () => p.manyToOne(UserEntity).ref().deleteRule('cascade'),
    store: () => p.manyToOne(StoreEntity).ref().nullable().deleteRule('set null').index(),
    message: p.text().default(''),
    reason: p.text().default(''),
    // A translation key (`reports.statuses.` + a preset) or free text, so no check; null until
    // the report team sets one.
    status: p.text().nullable(),
    consequence: p
      .text()
      .$type<ReportConsequenceKey>()
      .nullable()
      .check(`consequence in (${ReportConsequenceKeys.map((key) => `'${key}'`).join(', ')})`),
    reportedAt: p.datetime().defaultRaw('now()'),
    reminderAt: p.datetime().nullable(),
    forumThread: () => p.manyToOne(ForumThreadEntity).ref().nullable().deleteRule('set null'),
    reportedRegion: () => p.manyToOne(RegionEntity).ref().nullable().deleteRule('set null'),
  },
  indexes: [
    {
      // Newest first with the id as tie-breaker, read in index order: a page of a user's reports
      // never sorts the whole history.
      name: 'reports_reported_id_reported_at_id_index',
      expression: orderedIndex('"reported_id", "reported_at" DESC, "id" DESC'),
    },
    { name: 'reports_reporter_id_index', properties: ['reporter'] },
  ],
});
export type ReportEntity = InferEntity<typeof ReportEntity>;

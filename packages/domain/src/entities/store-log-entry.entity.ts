import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { StoreLogAction } from '../enums.ts';
import { identityId } from './columns.ts';
import { StoreEntity } from './store.entity.ts';
import { UserEntity } from './user.entity.ts';
import { orderedIndex } from './ordered-index.ts';

export const StoreLogEntryEntity = defineEntity({
  name: 'StoreLogEntry',
  tableName: 'store_log_entries',
  properties: {
    id: identityId(),
    store: () => p.manyToOne(StoreEntity).ref().deleteRule('cascade'),
    actionType: p
      .smallint()
      .$type<StoreLogAction>()
      .check('action_type >= 1 and action_type <= 20'),
    // The log outlives the people in it: deleting a user blanks their name, not the store's history.
    actor: () => p.manyToOne(UserEntity).ref().nullable().deleteRule('set null'),
    target: () => p.manyToOne(UserEntity).ref().nullable().deleteRule('set null'),
    performedAt: p.datetime().defaultRaw('now()'),
    dateReference: p.datetime().nullable(),
    content: p.text().nullable(),
    reason: p.text().nullable(),
  },
  indexes: [
    {
      // Newest first, ties broken by id, in index order (no incremental sort of a window).
      name: 'store_log_entries_store_id_performed_at_id_index',
      expression: orderedIndex('"store_id", "performed_at" DESC, "id" DESC'),
    },
    {
      name: 'store_log_entries_store_id_action_type_performed_at_index',
      columns: [
        { name: 'store_id' },
        { name: 'action_type' },
        { name: 'performed_at', sort: 'DESC' },
      ],
    },
  ],
});
export type StoreLogEntryEntity = InferEntity<typeof StoreLogEntryEntity>;

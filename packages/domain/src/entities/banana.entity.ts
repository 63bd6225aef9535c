import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, identityId } from './columns.ts';
import { UserEntity } from './user.entity.ts';
import { orderedIndex } from './ordered-index.ts';

/** A thank-you from one user to another: at most one per sender and recipient, never to oneself. */
export const BananaEntity = defineEntity({
  name: 'Banana',
  tableName: 'bananas',
  properties: {
    id: identityId(),
    recipient: () => p.manyToOne(UserEntity).ref().deleteRule('cascade'),
    sender: () => p.manyToOne(UserEntity).ref().deleteRule('cascade'),
    message: p.text().check('char_length(message) >= 100'),
    createdAt: createdAt(),
  },
  uniques: [{ name: 'bananas_recipient_id_sender_id_unique', properties: ['recipient', 'sender'] }],
  indexes: [
    { name: 'bananas_sender_id_index', properties: ['sender'] },
    {
      // A page of the bananas a user received, newest first, without sorting all of them.
      name: 'bananas_recipient_id_created_at_id_index',
      expression: orderedIndex('"recipient_id", "created_at" DESC, "id" DESC'),
    },
  ],
  checks: [{ name: 'bananas_not_to_oneself', expression: 'recipient_id <> sender_id' }],
});
export type BananaEntity = InferEntity<typeof BananaEntity>;

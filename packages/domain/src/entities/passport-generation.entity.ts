import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, identityId } from './columns.ts';
import { orderedIndex } from './ordered-index.ts';
import { UserEntity } from './user.entity.ts';

/** Every generated passport is recorded: whose it is and who made it. */
export const PassportGenerationEntity = defineEntity({
  name: 'PassportGeneration',
  tableName: 'passport_generations',
  properties: {
    id: identityId(),
    user: () => p.manyToOne(UserEntity).ref().deleteRule('cascade'),
    generatedBy: () => p.manyToOne(UserEntity).ref().nullable().deleteRule('set null'),
    createdAt: createdAt(),
  },
  indexes: [
    {
      // A user's generations newest first, ties by id, as the list reads them.
      name: 'passport_generations_user_id_created_at_id_index',
      expression: orderedIndex('"user_id", "created_at" DESC, "id" DESC'),
    },
  ],
});
export type PassportGenerationEntity = InferEntity<typeof PassportGenerationEntity>;

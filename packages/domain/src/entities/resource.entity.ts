import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, identityId } from './columns.ts';
import { RegionEntity } from './region.entity.ts';
import { UserEntity } from './user.entity.ts';

/** Something a user lends or shares (at most 10 per user, enforced by the service). */
export const ResourceEntity = defineEntity({
  name: 'Resource',
  tableName: 'resources',
  properties: {
    id: identityId(),
    owner: () => p.manyToOne(UserEntity).ref().deleteRule('cascade').index(),
    region: () => p.manyToOne(RegionEntity).ref().deleteRule('cascade').index(),
    name: p.string().length(35).check('char_length(name) >= 1'),
    description: p.text().default(''),
    openness: p.smallint().check('openness >= 1 and openness <= 5'),
    // Private resources are visible to the owner's buddies only.
    isPrivate: p.boolean().default(false),
    isFavorite: p.boolean().default(false),
    createdAt: createdAt(),
  },
});
export type Resource = InferEntity<typeof ResourceEntity>;

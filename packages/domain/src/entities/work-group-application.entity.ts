import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { RegionEntity } from './region.entity.ts';
import { UserEntity } from './user.entity.ts';

/** A pending application to a working group; declining or accepting deletes it. */
export const WorkGroupApplicationEntity = defineEntity({
  name: 'WorkGroupApplication',
  tableName: 'work_group_applications',
  properties: {
    group: () => p.manyToOne(RegionEntity).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(UserEntity).ref().primary().deleteRule('cascade'),
    message: p.text().default(''),
    appliedAt: p.datetime().defaultRaw('now()'),
  },
  indexes: [{ name: 'work_group_applications_user_id_index', properties: ['user'] }],
});
export type WorkGroupApplicationEntity = InferEntity<typeof WorkGroupApplicationEntity>;

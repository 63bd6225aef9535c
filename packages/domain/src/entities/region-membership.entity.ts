import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { RegionEntity } from './region.entity.ts';
import { UserEntity } from './user.entity.ts';

export const RegionMembershipEntity = defineEntity({
  name: 'RegionMembership',
  tableName: 'region_memberships',
  properties: {
    region: () => p.manyToOne(RegionEntity).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(UserEntity).ref().primary().deleteRule('cascade'),
    active: p.boolean().default(true),
    joinedAt: p.datetime().defaultRaw('now()'),
  },
  indexes: [{ name: 'region_memberships_user_id_index', properties: ['user'] }],
});
export type RegionMembership = InferEntity<typeof RegionMembershipEntity>;

/** Ambassadors of a region, admins of a working group. */
export const RegionAdminEntity = defineEntity({
  name: 'RegionAdmin',
  tableName: 'region_admins',
  properties: {
    region: () => p.manyToOne(RegionEntity).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(UserEntity).ref().primary().deleteRule('cascade'),
  },
  indexes: [{ name: 'region_admins_user_id_index', properties: ['user'] }],
});
export type RegionAdmin = InferEntity<typeof RegionAdminEntity>;

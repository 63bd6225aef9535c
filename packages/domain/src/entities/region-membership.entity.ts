import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { RegionEntity } from './region.entity.ts';
import { UserEntity } from './user.entity.ts';
import { SEARCH_INDEX_VERSION_TRIGGER } from './search-index-version.entity.ts';

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
  // docs/domain.md §5.4: joining or leaving a region revokes the user's OAuth refresh tokens, so
  // region claims are never stale for long. In the database, so that every code path that changes a
  // membership does it (users.tokens_valid_after is read at every refresh).
  triggers: [
    {
      name: 'revoke_oauth_tokens',
      timing: 'after',
      events: ['insert', 'update', 'delete'],
      body: `if tg_op = 'UPDATE' and old.active = new.active and old.user_id = new.user_id and old.region_id = new.region_id then return null; end if; update users set tokens_valid_after = clock_timestamp() where id in (old.user_id, new.user_id); return null;`,
    },
    SEARCH_INDEX_VERSION_TRIGGER,
  ],
});
export type RegionMembershipEntity = InferEntity<typeof RegionMembershipEntity>;

/** Ambassadors of a region, admins of a working group. */
export const RegionAdminEntity = defineEntity({
  name: 'RegionAdmin',
  tableName: 'region_admins',
  properties: {
    region: () => p.manyToOne(RegionEntity).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(UserEntity).ref().primary().deleteRule('cascade'),
  },
  indexes: [{ name: 'region_admins_user_id_index', properties: ['user'] }],
  // docs/domain.md §5.4: a change of region admins revokes the user's OAuth refresh tokens.
  triggers: [
    {
      name: 'revoke_oauth_tokens',
      timing: 'after',
      events: ['insert', 'update', 'delete'],
      body: `update users set tokens_valid_after = clock_timestamp() where id in (old.user_id, new.user_id); return null;`,
    },
    SEARCH_INDEX_VERSION_TRIGGER,
  ],
});
export type RegionAdminEntity = InferEntity<typeof RegionAdminEntity>;

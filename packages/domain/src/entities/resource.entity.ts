import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { MAX_RESOURCES_PER_USER } from '../permissions/resource.permissions.ts';
import { createdAt, identityId } from './columns.ts';
import { RegionEntity } from './region.entity.ts';
import { UserEntity } from './user.entity.ts';

/** Something a user lends or shares (at most 10 per user, enforced by the database). */
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
  // docs/domain.md §3.12: at most 10 resources per user, whichever code path adds or moves one. The
  // advisory lock per owner serialises concurrent additions, so two cannot both take the last
  // place; the error is a check violation (SQLSTATE 23514) naming resources_per_owner_limit.
  triggers: [
    {
      name: 'resources_per_owner_limit',
      timing: 'before',
      events: ['insert', 'update'],
      body: `if tg_op = 'UPDATE' and new.owner_id = old.owner_id then return new; end if; perform pg_advisory_xact_lock(hashtext('resources_per_owner'), new.owner_id); if (select count(*) from resources where owner_id = new.owner_id) >= ${MAX_RESOURCES_PER_USER} then raise exception 'a user has at most ${MAX_RESOURCES_PER_USER} resources' using errcode = 'check_violation', constraint = 'resources_per_owner_limit'; end if; return new;`,
    },
  ],
});
export type ResourceEntity = InferEntity<typeof ResourceEntity>;

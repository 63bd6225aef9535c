import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { EventInvitationStatus } from '../enums.ts';
import { createdAt, identityId } from './columns.ts';
import { RegionEntity } from './region.entity.ts';
import { UserEntity } from './user.entity.ts';
import { SEARCH_INDEX_VERSION_TRIGGER } from './search-index-version.entity.ts';

/** A calendar entry of a region (not a notification). */
export const EventEntity = defineEntity({
  name: 'Event',
  tableName: 'events',
  properties: {
    id: identityId(),
    region: () => p.manyToOne(RegionEntity).ref().deleteRule('cascade'),
    name: p.string().length(200),
    description: p.text().default(''),
    locationName: p.string().length(200).nullable(),
    // 0 at a place, 1 online.
    locationType: p.smallint().default(0).check('location_type >= 0'),
    startAt: p.datetime(),
    endAt: p.datetime(),
    status: p.text().default('scheduled'),
    createdAt: createdAt(),
    invitations: () => p.oneToMany(EventInvitationEntity).mappedBy('event').orphanRemoval(),
  },
  indexes: [{ name: 'events_region_id_start_at_index', properties: ['region', 'startAt'] }],
  checks: [{ name: 'events_ends_after_start', expression: 'end_at >= start_at' }],
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type EventEntity = InferEntity<typeof EventEntity>;

export const EventInvitationEntity = defineEntity({
  name: 'EventInvitation',
  tableName: 'event_invitations',
  properties: {
    event: () => p.manyToOne(EventEntity).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(UserEntity).ref().primary().deleteRule('cascade'),
    status: p
      .text()
      .$type<EventInvitationStatus>()
      .default('invited')
      .check("status in ('invited', 'accepted', 'maybe', 'wont_join')"),
  },
  indexes: [{ name: 'event_invitations_user_id_index', properties: ['user'] }],
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type EventInvitationEntity = InferEntity<typeof EventInvitationEntity>;

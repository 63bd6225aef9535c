import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, identityId } from './columns.ts';
import { RegionEntity } from './region.entity.ts';
import { UserEntity } from './user.entity.ts';
import { SEARCH_INDEX_VERSION_TRIGGER } from './search-index-version.entity.ts';

export const PollEntity = defineEntity({
  name: 'Poll',
  tableName: 'polls',
  properties: {
    id: identityId(),
    region: () => p.manyToOne(RegionEntity).ref().deleteRule('cascade'),
    name: p.string().length(200),
    description: p.text().default(''),
    startAt: p.datetime(),
    endAt: p.datetime(),
    createdAt: createdAt(),
    votes: () => p.oneToMany(PollVoteEntity).mappedBy('poll').orphanRemoval(),
  },
  indexes: [{ name: 'polls_region_id_start_at_index', properties: ['region', 'startAt'] }],
  checks: [{ name: 'polls_ends_after_start', expression: 'end_at >= start_at' }],
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type PollEntity = InferEntity<typeof PollEntity>;

/** Who has voted (for `hasVoted`); one vote per user and poll. */
export const PollVoteEntity = defineEntity({
  name: 'PollVote',
  tableName: 'poll_votes',
  properties: {
    poll: () => p.manyToOne(PollEntity).ref().primary().deleteRule('cascade'),
    user: () => p.manyToOne(UserEntity).ref().primary().deleteRule('cascade'),
    votedAt: p.datetime().defaultRaw('now()'),
  },
  indexes: [{ name: 'poll_votes_user_id_index', properties: ['user'] }],
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type PollVoteEntity = InferEntity<typeof PollVoteEntity>;

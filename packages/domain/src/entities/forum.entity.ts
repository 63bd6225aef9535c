import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, identityId } from './columns.ts';
import { RegionEntity } from './region.entity.ts';
import { UserEntity } from './user.entity.ts';
import { SEARCH_INDEX_VERSION_TRIGGER } from './search-index-version.entity.ts';

export const ForumThreadEntity = defineEntity({
  name: 'ForumThread',
  tableName: 'forum_threads',
  properties: {
    id: identityId(),
    region: () => p.manyToOne(RegionEntity).ref().deleteRule('cascade'),
    title: p.string().length(255),
    author: () => p.manyToOne(UserEntity).ref().nullable().deleteRule('set null'),
    pinnedLevel: p.smallint().default(0).check('pinned_level >= 0'),
    isClosed: p.boolean().default(false),
    // Each region has two forums: the general one and the one of its ambassadors.
    isAmbassadorForum: p.boolean().default(false),
    createdAt: createdAt(),
    lastPostAt: p.datetime().defaultRaw('now()'),
    posts: () => p.oneToMany(ForumPostEntity).mappedBy('thread'),
  },
  indexes: [
    {
      name: 'forum_threads_region_id_last_post_at_index',
      columns: [{ name: 'region_id' }, { name: 'last_post_at', sort: 'DESC' }],
    },
  ],
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type ForumThreadEntity = InferEntity<typeof ForumThreadEntity>;

export const ForumPostEntity = defineEntity({
  name: 'ForumPost',
  tableName: 'forum_posts',
  properties: {
    id: identityId(),
    thread: () => p.manyToOne(ForumThreadEntity).ref().deleteRule('cascade'),
    author: () => p.manyToOne(UserEntity).ref().nullable().deleteRule('set null'),
    body: p.text(),
    createdAt: createdAt(),
    // A hidden post keeps its body for moderators; the hide record is shown to everyone else.
    hiddenAt: p.datetime().nullable(),
    hiddenBy: () => p.manyToOne(UserEntity).ref().nullable().deleteRule('set null'),
    hideReason: p.string().length(255).nullable().check('char_length(hide_reason) >= 1'),
  },
  indexes: [
    { name: 'forum_posts_thread_id_created_at_index', properties: ['thread', 'createdAt'] },
    { name: 'forum_posts_author_id_index', properties: ['author'] },
  ],
  checks: [
    {
      name: 'forum_posts_hidden_with_reason',
      expression: '(hidden_at is null) = (hide_reason is null)',
    },
  ],
  triggers: [SEARCH_INDEX_VERSION_TRIGGER],
});
export type ForumPostEntity = InferEntity<typeof ForumPostEntity>;

import {
  type Actor,
  type ForumReadFacts,
  holdsRegionDuty,
  RegionType,
  WorkGroupFunction,
  type SqlQuery,
} from '@foodshare/domain';
import type { ForumPostHideRecord, ForumPostList, UserStub } from '@foodshare/schemas';
import { isoTimestamp, userStubJson } from '../../shared/sql.ts';

/**
 * Columns that decide what the actor may do in the thread aliased `t`: the region's membership
 * and ambassadors, and its moderation duty (docs/domain.md §3.1: the admins of a moderation
 * working group under the region, or its ambassadors when it has none). Takes
 * threadAccessParams(userId).
 */
const THREAD_ACCESS_COLUMNS = `
  t.is_ambassador_forum,
  exists (select 1 from region_memberships m
           where m.region_id = t.region_id and m.user_id = ? and m.active) as is_member,
  exists (select 1 from region_admins a
           where a.region_id = t.region_id and a.user_id = ?) as is_ambassador,
  exists (select 1 from regions g
           where g.parent_id = t.region_id and g.type = ${RegionType.WorkingGroup}
             and g.workgroup_function = ${WorkGroupFunction.Moderation}) as has_moderation_group,
  exists (select 1 from regions g join region_admins ga on ga.region_id = g.id
           where g.parent_id = t.region_id and g.type = ${RegionType.WorkingGroup}
             and g.workgroup_function = ${WorkGroupFunction.Moderation}
             and ga.user_id = ?) as is_moderation_group_admin`;

const threadAccessParams = (userId: number): number[] => [userId, userId, userId];

export interface ThreadAccessRow {
  is_ambassador_forum: boolean;
  is_member: boolean;
  is_ambassador: boolean;
  has_moderation_group: boolean;
  is_moderation_group_admin: boolean;
}

export function forumFactsOf(actor: Actor, row: ThreadAccessRow): ForumReadFacts {
  // The row says only whether the actor is among the holders, so the sets hold the actor alone.
  const mine = (member: boolean) => new Set(member ? [actor.id] : []);
  const holdsModerationDuty = holdsRegionDuty(actor, {
    delegateAdminIds: row.has_moderation_group ? mine(row.is_moderation_group_admin) : null,
    ambassadorIds: mine(row.is_ambassador),
  });
  return {
    holdsModerationDuty,
    isAmbassadorForum: row.is_ambassador_forum,
    isRegionMember: row.is_member,
    isRegionAmbassador: row.is_ambassador,
  };
}

/** What the rules need about the thread's region; no row: no thread. */
export function threadAccessQuery(userId: number, threadId: number): SqlQuery<ThreadAccessRow> {
  return {
    sql: `select ${THREAD_ACCESS_COLUMNS} from forum_threads t where t.id = ?`,
    params: [...threadAccessParams(userId), threadId],
  };
}

interface HideColumns {
  hidden_at: string | null;
  hide_reason: string | null;
  moderator: UserStub | null;
}

export function hideRecordOf(row: HideColumns): ForumPostHideRecord | null {
  if (row.hidden_at === null || row.hide_reason === null) return null;
  return {
    reason: row.hide_reason,
    moderator: row.moderator,
    hiddenAt: isoTimestamp(row.hidden_at),
  };
}

export interface PostAccessRow extends ThreadAccessRow, HideColumns {
  allow_hiding_in_forum: boolean;
}

/** The post's hide record and what the rules need about its thread's region; no row: no post. */
export function postAccessQuery(userId: number, postId: number): SqlQuery<PostAccessRow> {
  return {
    sql: `select p.hidden_at, p.hide_reason, ${userStubJson('h')} as moderator,
                 r.allow_hiding_in_forum, ${THREAD_ACCESS_COLUMNS}
            from forum_posts p
            join forum_threads t on t.id = p.thread_id
            join regions r on r.id = t.region_id
            left join users h on h.id = p.hidden_by_id
           where p.id = ?`,
    params: [...threadAccessParams(userId), postId],
  };
}

/**
 * Hides the post unless it is hidden already (no row then): of two moderators hiding at once,
 * one wins.
 */
export function hidePostQuery(
  postId: number,
  moderatorId: number,
  reason: string,
): SqlQuery<HideColumns> {
  return {
    sql: `update forum_posts p
             set hidden_at = now(), hidden_by_id = ?, hide_reason = ?
           where p.id = ? and p.hidden_at is null
           returning p.hidden_at, p.hide_reason,
                     (select ${userStubJson('h')} from users h where h.id = p.hidden_by_id)
                       as moderator`,
    params: [moderatorId, reason, postId],
  };
}

/** Restores the post if it is hidden; no row otherwise. */
export function restorePostQuery(postId: number): SqlQuery<{ id: number }> {
  return {
    sql: `update forum_posts
             set hidden_at = null, hidden_by_id = null, hide_reason = null
           where id = ? and hidden_at is not null
           returning id`,
    params: [postId],
  };
}

interface PostRow extends HideColumns {
  id: number;
  author: UserStub | null;
  created_at: string;
  body: string;
}

/** One page of the thread's posts, oldest first, with authors and hide records. */
export function threadPostsQuery(
  threadId: number,
  page: { limit: number; offset: number },
): SqlQuery<PostRow> {
  return {
    sql: `select p.id, p.created_at, p.body, p.hidden_at, p.hide_reason,
                 ${userStubJson('a')} as author, ${userStubJson('h')} as moderator
            from forum_posts p
            left join users a on a.id = p.author_id
            left join users h on h.id = p.hidden_by_id
           where p.thread_id = ?
           order by p.created_at, p.id
           limit ? offset ?`,
    params: [threadId, page.limit, page.offset],
  };
}

/** The posts; a hidden post keeps its body only for readers who `seesHiddenBodies`. */
export function threadPostsOf(rows: PostRow[], seesHiddenBodies: boolean): ForumPostList {
  return rows.map((row) => {
    const hide = hideRecordOf(row);
    return {
      id: row.id,
      author: row.author,
      createdAt: isoTimestamp(row.created_at),
      body: hide === null || seesHiddenBodies ? row.body : null,
      isHidden: hide !== null,
      hide,
    };
  });
}

import {
  type Actor,
  type EntityManager,
  type ForumReadFacts,
  mayHideForumPost,
  mayModerateForum,
  mayReadForumThread,
  mayRestoreForumPost,
  maySeeHiddenForumPostBody,
} from '@foodshare/domain';
import {
  type ForumPostHideBody,
  type ForumPostHideRecord,
  type ForumPostHideState,
  type ForumPostList,
  trimSpace,
  type UserStub,
} from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import {
  forumFactsOf,
  THREAD_ACCESS_COLUMNS,
  threadAccessParams,
  type ThreadAccessRow,
} from './forum-access.ts';
import type { PendingBody } from '../../shared/pending-body.ts';
import { isoTimestamp, userStubJson } from '../../shared/sql.ts';

const DEFAULT_POSTS_LIMIT = 50;

interface HideColumns {
  hidden_at: string | null;
  hide_reason: string | null;
  moderator: UserStub | null;
}

interface PostAccessRow extends ThreadAccessRow, HideColumns {
  allow_hiding_in_forum: boolean;
}

interface PostAccess {
  facts: ForumReadFacts;
  allowHidingInForum: boolean;
  hide: ForumPostHideRecord | null;
}

function hideRecordOf(row: HideColumns): ForumPostHideRecord | null {
  if (row.hidden_at === null || row.hide_reason === null) return null;
  return {
    reason: row.hide_reason,
    moderator: row.moderator,
    hiddenAt: isoTimestamp(row.hidden_at),
  };
}

function stateOf(postId: number, hide: ForumPostHideRecord | null): ForumPostHideState {
  return { postId, isHidden: hide !== null, hide };
}

/** One query: the post's hide record and everything the rules need about its thread's region. */
async function loadPostAccess(
  em: EntityManager,
  actor: Actor,
  postId: number,
): Promise<PostAccess> {
  const rows = await em.execute<PostAccessRow[]>(
    `select p.hidden_at, p.hide_reason, ${userStubJson('h')} as moderator,
            r.allow_hiding_in_forum, ${THREAD_ACCESS_COLUMNS}
       from forum_posts p
       join forum_threads t on t.id = p.thread_id
       join regions r on r.id = t.region_id
       left join users h on h.id = p.hidden_by_id
      where p.id = ?`,
    [...threadAccessParams(actor), postId],
  );
  const row = rows[0];
  if (!row) throw Problem.notFound('There is no forum post with this id.');
  return {
    facts: forumFactsOf(actor, row),
    allowHidingInForum: row.allow_hiding_in_forum,
    hide: hideRecordOf(row),
  };
}

const notAReader = () =>
  Problem.forbidden('FORUM_ACCESS_FORBIDDEN', 'Only members of the region read its forum.');

const notAModerator = () =>
  Problem.forbidden(
    'FORUM_MODERATION_FORBIDDEN',
    "Only orga and the moderators of the thread's region hide or restore posts.",
  );

/**
 * Read-only (docs/design.md §3.4): whoever may read the thread sees whether and why a post is
 * hidden.
 */
export async function getHideState(
  em: EntityManager,
  actor: Actor,
  postId: number,
): Promise<ForumPostHideState> {
  const access = await loadPostAccess(em, actor, postId);
  if (!mayReadForumThread(actor, access.facts)) throw notAReader();
  return stateOf(postId, access.hide);
}

export async function hidePost(
  em: EntityManager,
  actor: Actor,
  postId: number,
  body: PendingBody<ForumPostHideBody>,
): Promise<ForumPostHideState> {
  const access = await loadPostAccess(em, actor, postId);
  // A moderator learns that the option is off; anybody else only that they may not moderate.
  if (!mayModerateForum(actor, access.facts)) throw notAModerator();
  const facts = { ...access.facts, allowHidingInForum: access.allowHidingInForum };
  if (!mayHideForumPost(actor, facts)) {
    throw Problem.forbidden(
      'FORUM_HIDING_DISABLED',
      'The region does not allow hiding posts in its forum.',
    );
  }
  const { reason } = body.validate();
  // Conditional update: of two moderators hiding at once, one wins and the other gets the 400.
  const rows = await em.execute<HideColumns[]>(
    `update forum_posts p
        set hidden_at = now(), hidden_by_id = ?, hide_reason = ?
      where p.id = ? and p.hidden_at is null
      returning p.hidden_at, p.hide_reason,
                (select ${userStubJson('h')} from users h where h.id = p.hidden_by_id) as moderator`,
    [actor.id, trimSpace(reason), postId],
  );
  const row = rows[0];
  if (!row) throw Problem.badRequest('POST_ALREADY_HIDDEN', 'The post is hidden already.');
  return stateOf(postId, hideRecordOf(row));
}

/** Restoring never depends on the region option, so an earlier hide can always be undone. */
export async function restorePost(
  em: EntityManager,
  actor: Actor,
  postId: number,
): Promise<ForumPostHideState> {
  const access = await loadPostAccess(em, actor, postId);
  if (!mayRestoreForumPost(actor, access.facts)) throw notAModerator();
  const rows = await em.execute<{ id: number }[]>(
    `update forum_posts
        set hidden_at = null, hidden_by_id = null, hide_reason = null
      where id = ? and hidden_at is not null
      returning id`,
    [postId],
  );
  if (rows.length === 0) throw Problem.badRequest('POST_NOT_HIDDEN', 'The post is not hidden.');
  return stateOf(postId, null);
}

interface PostRow extends HideColumns {
  id: number;
  author: UserStub | null;
  created_at: string;
  body: string;
}

/** Oldest first. Hidden posts keep their body for moderators only; everybody sees the record. */
export async function listThreadPosts(
  em: EntityManager,
  actor: Actor,
  threadId: number,
  page: { limit?: number | undefined; offset?: number | undefined },
): Promise<ForumPostList> {
  const threads = await em.execute<ThreadAccessRow[]>(
    `select ${THREAD_ACCESS_COLUMNS} from forum_threads t where t.id = ?`,
    [...threadAccessParams(actor), threadId],
  );
  const thread = threads[0];
  if (!thread) throw Problem.notFound('There is no forum thread with this id.');
  const facts = forumFactsOf(actor, thread);
  if (!mayReadForumThread(actor, facts)) throw notAReader();
  const seesHiddenBodies = maySeeHiddenForumPostBody(actor, facts);
  const rows = await em.execute<PostRow[]>(
    `select p.id, p.created_at, p.body, p.hidden_at, p.hide_reason,
            ${userStubJson('a')} as author, ${userStubJson('h')} as moderator
       from forum_posts p
       left join users a on a.id = p.author_id
       left join users h on h.id = p.hidden_by_id
      where p.thread_id = ?
      order by p.created_at, p.id
      limit ? offset ?`,
    [threadId, page.limit ?? DEFAULT_POSTS_LIMIT, page.offset ?? 0],
  );
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

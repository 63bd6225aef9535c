import {
  type Actor,
  type EntityManager,
  type ForumReadFacts,
  mayHideForumPost,
  mayModerateForum,
  mayReadForumThread,
  mayRestoreForumPost,
  maySeeHiddenForumPostBody,
  runSql,
} from '@foodshare/domain';
import {
  type ForumPostHideBody,
  type ForumPostHideRecord,
  type ForumPostHideState,
  type ForumPostList,
  trimSpace,
} from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import {
  forumFactsOf,
  hidePostQuery,
  hideRecordOf,
  postAccessQuery,
  type PostAccessRow,
  restorePostQuery,
  threadAccessQuery,
  type ThreadAccessRow,
  threadPostsOf,
  threadPostsQuery,
} from './forum.sql.ts';

const DEFAULT_POSTS_LIMIT = 50;

/** The rules' facts about a post's thread, with what the same query reads about the post. */
interface PostFacts {
  facts: ForumReadFacts;
  allowHidingInForum: boolean;
  hide: ForumPostHideRecord | null;
}

function stateOf(postId: number, hide: ForumPostHideRecord | null): ForumPostHideState {
  return { postId, isHidden: hide !== null, hide };
}

/** One query: the post's hide record and everything the rules need about its thread's region. */
async function loadPostFacts(em: EntityManager, actor: Actor, postId: number): Promise<PostFacts> {
  const [row] = await runSql(em, postAccessQuery(actor.id, postId));
  return postFactsOf(actor, row);
}

function postFactsOf(actor: Actor, row: PostAccessRow | undefined): PostFacts {
  if (!row) throw Problem.notFound('There is no forum post with this id.');
  return {
    facts: forumFactsOf(actor, row),
    allowHidingInForum: row.allow_hiding_in_forum,
    hide: hideRecordOf(row),
  };
}

/** One query: what the rules need about the thread's region; 404 for an unknown thread. */
async function loadThreadFacts(
  em: EntityManager,
  actor: Actor,
  threadId: number,
): Promise<ForumReadFacts> {
  const [row]: (ThreadAccessRow | undefined)[] = await runSql(
    em,
    threadAccessQuery(actor.id, threadId),
  );
  if (!row) throw Problem.notFound('There is no forum thread with this id.');
  return forumFactsOf(actor, row);
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
  const post = await loadPostFacts(em, actor, postId);
  if (!mayReadForumThread(actor, post.facts)) throw notAReader();
  return stateOf(postId, post.hide);
}

/**
 * The route's permission check, before the body is validated: 404 for an unknown post, 403
 * unless the caller may hide it.
 */
export async function checkPostHider(
  em: EntityManager,
  actor: Actor,
  postId: number,
): Promise<void> {
  const post = await loadPostFacts(em, actor, postId);
  // A moderator learns that the option is off; anybody else only that they may not moderate.
  if (!mayModerateForum(actor, post.facts)) throw notAModerator();
  const facts = { ...post.facts, allowHidingInForum: post.allowHidingInForum };
  if (!mayHideForumPost(actor, facts)) {
    throw Problem.forbidden(
      'FORUM_HIDING_DISABLED',
      'The region does not allow hiding posts in its forum.',
    );
  }
}

/** Hides the post (the route checked the caller with `checkPostHider` first). */
export async function hidePost(
  em: EntityManager,
  actor: Actor,
  postId: number,
  { reason }: ForumPostHideBody,
): Promise<ForumPostHideState> {
  // Of two moderators hiding at once, one wins and the other gets the 400.
  const [row] = await runSql(em, hidePostQuery(postId, actor.id, trimSpace(reason)));
  if (!row) throw Problem.badRequest('POST_ALREADY_HIDDEN', 'The post is hidden already.');
  return stateOf(postId, hideRecordOf(row));
}

/** Restoring never depends on the region option, so an earlier hide can always be undone. */
export async function restorePost(
  em: EntityManager,
  actor: Actor,
  postId: number,
): Promise<ForumPostHideState> {
  const post = await loadPostFacts(em, actor, postId);
  if (!mayRestoreForumPost(actor, post.facts)) throw notAModerator();
  const rows = await runSql(em, restorePostQuery(postId));
  if (rows.length === 0) throw Problem.badRequest('POST_NOT_HIDDEN', 'The post is not hidden.');
  return stateOf(postId, null);
}

/**
 * Oldest first. Hidden posts keep their body for moderators only; everybody sees the record. The
 * thread's facts first; the posts only for a reader.
 */
export async function listThreadPosts(
  em: EntityManager,
  actor: Actor,
  threadId: number,
  page: { limit?: number | undefined; offset?: number | undefined },
): Promise<ForumPostList> {
  const facts = await loadThreadFacts(em, actor, threadId);
  if (!mayReadForumThread(actor, facts)) throw notAReader();
  const seesHiddenBodies = maySeeHiddenForumPostBody(actor, facts);
  const rows = await runSql(
    em,
    threadPostsQuery(threadId, {
      limit: page.limit ?? DEFAULT_POSTS_LIMIT,
      offset: page.offset ?? 0,
    }),
  );
  return threadPostsOf(rows, seesHiddenBodies);
}

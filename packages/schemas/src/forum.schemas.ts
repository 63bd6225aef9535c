import { type Static, Type } from 'typebox';
import { DateTime, Id, MAX_ID, NonBlankText, Nullable } from './common.schemas.ts';
import { PositiveIdParam } from './params.schemas.ts';
import { UserStubSchema } from './user.schemas.ts';

export const ForumPostHideBodySchema = Type.Object(
  { reason: NonBlankText({ maxLength: 255 }) },
  { title: 'ForumPostHideBody', additionalProperties: false },
);
export type ForumPostHideBody = Static<typeof ForumPostHideBodySchema>;

/** Who hid a post, when and why; shown to everybody who may read the thread. */
export const ForumPostHideRecordSchema = Type.Object(
  {
    reason: Type.String(),
    // The hide outlives the moderator's account (the column is set null on delete).
    moderator: Nullable(UserStubSchema),
    hiddenAt: DateTime(),
  },
  { title: 'ForumPostHideRecord' },
);
export type ForumPostHideRecord = Static<typeof ForumPostHideRecordSchema>;

/** The answer of GET, PATCH and DELETE on `/api/forum/post/{postId}/hide`. */
export const ForumPostHideStateSchema = Type.Object(
  {
    postId: Id(),
    isHidden: Type.Boolean(),
    hide: Nullable(ForumPostHideRecordSchema),
  },
  { title: 'ForumPostHideState' },
);
export type ForumPostHideState = Static<typeof ForumPostHideStateSchema>;

export const ThreadIdParamsSchema = Type.Object(
  { threadId: PositiveIdParam() },
  { title: 'ThreadIdParams' },
);
export type ThreadIdParams = Static<typeof ThreadIdParamsSchema>;

export const FORUM_POSTS_MAX_LIMIT = 100;

/** Oldest first, the order a thread is read in. */
export const ForumThreadPostsQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: FORUM_POSTS_MAX_LIMIT, description: 'Default 50' }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'Default 0' })),
  },
  { title: 'ForumThreadPostsQuery', additionalProperties: false },
);
export type ForumThreadPostsQuery = Static<typeof ForumThreadPostsQuerySchema>;

/** A post as a reader of its thread sees it. */
export const ForumPostSchema = Type.Object(
  {
    id: Id(),
    author: Nullable(UserStubSchema),
    createdAt: DateTime(),
    body: Nullable(
      Type.String({ description: 'null when the post is hidden and the caller is no moderator' }),
    ),
    isHidden: Type.Boolean(),
    hide: Nullable(ForumPostHideRecordSchema),
  },
  { title: 'ForumPost' },
);
export type ForumPost = Static<typeof ForumPostSchema>;

export const ForumPostListSchema = Type.Array(ForumPostSchema, { title: 'ForumPostList' });
export type ForumPostList = Static<typeof ForumPostListSchema>;

import { type Static, Type } from 'typebox';
import { DateTime, Id, Nullable } from './common.schemas.ts';
import { UserStubSchema } from './user.schemas.ts';

export const ForumPostHideBodySchema = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }) },
  { title: 'ForumPostHideBody', additionalProperties: false },
);
export type ForumPostHideBody = Static<typeof ForumPostHideBodySchema>;

/** Who hid a post, when and why; shown to everybody who may read the thread. */
export const ForumPostHideRecordSchema = Type.Object(
  { reason: Type.String(), moderator: UserStubSchema, hiddenAt: DateTime() },
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

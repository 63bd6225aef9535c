import {
  ForumPostHideBodySchema,
  ForumPostHideStateSchema,
  ForumPostListSchema,
  ForumThreadPostsQuerySchema,
  PostIdParamsSchema,
  ProblemSchema,
  ThreadIdParamsSchema,
} from '@foodshare/schemas';
import { requireActor } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getHideState, hidePost, listThreadPosts, restorePost } from './forum-posts.service.ts';
import { callerOf } from '../../shared/as-actor.ts';
import { idFromPath, idFromPathAsActor, resourceProblems } from '../../shared/path-ids.ts';
import { bodyOf } from '../../plugins/wire-conventions.ts';

const tags = ['forum'];

const readProblems = resourceProblems;
const writeProblems = { 400: ProblemSchema, ...readProblems };

export const forumRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/forum/post/:postId/hide',
    {
      schema: {
        tags,
        operationId: 'getForumPostHideState',
        summary: "A forum post's hide state (read-only; PATCH hides, DELETE restores)",
        params: PostIdParamsSchema,
        response: { 200: ForumPostHideStateSchema, ...readProblems },
      },
    },
    // The caller's account is read with the forum's facts (shared/as-actor.ts).
    async (request) => {
      const caller = callerOf(request);
      const postId = await idFromPathAsActor(request, request.params.postId);
      return getHideState(request.em, caller, postId);
    },
  );

  app.patch(
    '/forum/post/:postId/hide',
    {
      schema: {
        tags,
        operationId: 'hideForumPost',
        summary: 'Hide a forum post, with a reason (moderators, if the region allows hiding)',
        params: PostIdParamsSchema,
        body: ForumPostHideBodySchema,
        response: { 200: ForumPostHideStateSchema, ...writeProblems },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      const postId = idFromPath(request.params.postId);
      return hidePost(request.em, actor, postId, bodyOf(request));
    },
  );

  app.delete(
    '/forum/post/:postId/hide',
    {
      schema: {
        tags,
        operationId: 'restoreForumPost',
        summary: 'Restore a hidden forum post (moderators)',
        params: PostIdParamsSchema,
        response: { 200: ForumPostHideStateSchema, ...writeProblems },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      const postId = idFromPath(request.params.postId);
      return restorePost(request.em, actor, postId);
    },
  );

  app.get(
    '/forum/threads/:threadId/posts',
    {
      schema: {
        tags,
        operationId: 'getThreadPosts',
        summary: "A thread's posts, oldest first; hidden ones without body for non-moderators",
        params: ThreadIdParamsSchema,
        querystring: ForumThreadPostsQuerySchema,
        response: { 200: ForumPostListSchema, 400: ProblemSchema, ...readProblems },
      },
    },
    // The caller's account is read with the forum's facts (shared/as-actor.ts).
    async (request) => {
      const caller = callerOf(request);
      const threadId = await idFromPathAsActor(request, request.params.threadId);
      return listThreadPosts(request.em, caller, threadId, request.query);
    },
  );
};

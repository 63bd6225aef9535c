import {
  ForumPostHideBodySchema,
  ForumPostHideStateSchema,
  ForumPostListSchema,
  ForumThreadPostsQuerySchema,
  parseIdParam,
  PostIdParamsSchema,
  ProblemSchema,
  ThreadIdParamsSchema,
} from '@foodshare/schemas';
import { Problem, requireActor } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getHideState, hidePost, listThreadPosts, restorePost } from './forum-posts.service.ts';

const tags = ['forum'];

const readProblems = { 401: ProblemSchema, 403: ProblemSchema, 404: ProblemSchema };
const writeProblems = { 400: ProblemSchema, ...readProblems };

/** A path id beyond 32 bits names no row: 404 like a pattern mismatch (DESIGN.md 3). */
function idOf(value: string): number {
  const id = parseIdParam(value);
  if (id === undefined) throw Problem.notFound();
  return id;
}

export const forumRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/forum/post/:postId/hide',
    {
      schema: {
        tags,
        summary: "A forum post's hide state (read-only; PATCH hides, DELETE restores)",
        params: PostIdParamsSchema,
        response: { 200: ForumPostHideStateSchema, ...readProblems },
      },
    },
    async (request) => {
      const postId = idOf(request.params.postId);
      return getHideState(request.em, await requireActor(request), postId);
    },
  );

  app.patch(
    '/forum/post/:postId/hide',
    {
      schema: {
        tags,
        summary: 'Hide a forum post, with a reason (moderators, if the region allows hiding)',
        params: PostIdParamsSchema,
        body: ForumPostHideBodySchema,
        response: { 200: ForumPostHideStateSchema, ...writeProblems },
      },
    },
    async (request) => {
      const postId = idOf(request.params.postId);
      const actor = await requireActor(request);
      return hidePost(request.em, actor, postId, request.body.reason);
    },
  );

  app.delete(
    '/forum/post/:postId/hide',
    {
      schema: {
        tags,
        summary: 'Restore a hidden forum post (moderators)',
        params: PostIdParamsSchema,
        response: { 200: ForumPostHideStateSchema, ...writeProblems },
      },
    },
    async (request) => {
      const postId = idOf(request.params.postId);
      return restorePost(request.em, await requireActor(request), postId);
    },
  );

  app.get(
    '/forum/threads/:threadId/posts',
    {
      schema: {
        tags,
        summary: "A thread's posts, oldest first; hidden ones without body for non-moderators",
        params: ThreadIdParamsSchema,
        querystring: ForumThreadPostsQuerySchema,
        response: { 200: ForumPostListSchema, 400: ProblemSchema, ...readProblems },
      },
    },
    async (request) => {
      const threadId = idOf(request.params.threadId);
      const actor = await requireActor(request);
      return listThreadPosts(request.em, actor, threadId, request.query);
    },
  );
};

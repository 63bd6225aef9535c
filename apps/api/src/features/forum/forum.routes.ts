import {
  ForumPostHideBodySchema,
  ForumPostHideStateSchema,
  ForumPostListSchema,
  ForumThreadPostsQuerySchema,
  PostIdParamsSchema,
  ProblemSchema,
  ThreadIdParamsSchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  checkPostHider,
  getHideState,
  hidePost,
  listThreadPosts,
  restorePost,
} from './forum-posts.service.ts';
import { requireActor, requireSession } from '../../plugins/caller.ts';
import { idFromPath, resourceProblems } from '../../plugins/platform-wire-format.ts';

const tags = ['forum'];

const readProblems = resourceProblems;
const writeProblems = { 400: ProblemSchema, ...readProblems };

/** preValidation: 404 for an unknown post, 403 unless the caller may hide it. */
async function requirePostHider(request: FastifyRequest): Promise<void> {
  await checkPostHider(request.em, request.actor, idFromPath(request, 'postId'));
}

export const forumRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/forum/post/:postId/hide',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags,
        operationId: 'getForumPostHideState',
        summary: "A forum post's hide state (read-only; PATCH hides, DELETE restores)",
        params: PostIdParamsSchema,
        response: { 200: ForumPostHideStateSchema, ...readProblems },
      },
    },
    async (request) => getHideState(request.em, request.actor, idFromPath(request, 'postId')),
  );

  app.patch(
    '/forum/post/:postId/hide',
    {
      onRequest: requireSession,
      preValidation: [requireActor, requirePostHider],
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
      return hidePost(request.em, request.actor, idFromPath(request, 'postId'), request.body);
    },
  );

  app.delete(
    '/forum/post/:postId/hide',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags,
        operationId: 'restoreForumPost',
        summary: 'Restore a hidden forum post (moderators)',
        params: PostIdParamsSchema,
        response: { 200: ForumPostHideStateSchema, ...writeProblems },
      },
    },
    async (request) => restorePost(request.em, request.actor, idFromPath(request, 'postId')),
  );

  app.get(
    '/forum/threads/:threadId/posts',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags,
        operationId: 'getThreadPosts',
        summary: "A thread's posts, oldest first; hidden ones without body for non-moderators",
        params: ThreadIdParamsSchema,
        querystring: ForumThreadPostsQuerySchema,
        response: { 200: ForumPostListSchema, 400: ProblemSchema, ...readProblems },
      },
    },
    async (request) => {
      const threadId = idFromPath(request, 'threadId');
      return listThreadPosts(request.em, request.actor, threadId, request.query);
    },
  );
};

import {
  BananaBodySchema,
  BananaListSchema,
  BananaParamsSchema,
  BananaSchema,
  EmptyResultSchema,
  POSITIVE_ID_PATTERN,
  ProblemSchema,
  RecipientIdParamsSchema,
  PageQuerySchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { PermissionFacts, requireActor, requireSession } from '../../plugins/caller.ts';
import { pageOf, requireIntegerPageQuery } from '../../shared/page-query.ts';
import { idFromPath } from '../../plugins/platform-wire-format.ts';
import {
  type BananaGift,
  checkBananaGift,
  deleteBanana,
  giveBanana,
  listReceivedBananas,
} from './bananas.service.ts';

const tags = ['bananas'];

const bananaGifts = new PermissionFacts<BananaGift>('requireBananaGiver');

/** preValidation: 404 for an unknown recipient, 403 unless the caller may give them one. */
async function requireBananaGiver(request: FastifyRequest): Promise<void> {
  // docs/spec.md §4.1 row 17: `[1-9][0-9]*`, so `01` names no one here.
  const recipientId = idFromPath(request, 'recipientId', POSITIVE_ID_PATTERN);
  bananaGifts.set(request, await checkBananaGift(request.em, request.actor, recipientId));
}

export const bananasRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/users/:recipientId/bananas',
    {
      onRequest: requireSession,
      preValidation: [requireActor, requireBananaGiver],
      schema: {
        tags,
        operationId: 'giveBanana',
        summary: 'Give a user a banana (verified users, once per recipient, 100+ characters)',
        params: RecipientIdParamsSchema,
        body: BananaBodySchema,
        response: {
          200: BananaSchema,
          400: ProblemSchema,
          401: ProblemSchema,
          403: ProblemSchema,
          404: ProblemSchema,
          422: ProblemSchema,
        },
      },
    },
    async (request) => giveBanana(request.em, request.actor, bananaGifts.of(request), request.body),
  );

  app.delete(
    '/users/:recipientId/bananas/:senderId',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags,
        operationId: 'deleteBanana',
        summary: 'Remove a banana (its recipient, its sender, or IT support)',
        params: BananaParamsSchema,
        response: {
          200: EmptyResultSchema,
          401: ProblemSchema,
          403: ProblemSchema,
          404: ProblemSchema,
        },
      },
    },
    async (request) => {
      const recipientId = idFromPath(request, 'recipientId');
      const senderId = idFromPath(request, 'senderId');
      await deleteBanana(request.em, request.actor, recipientId, senderId);
      return {};
    },
  );

  app.get(
    // The same path as giving one, so the same parameter (RecipientIdParamsSchema): the user
    // whose received bananas these are.
    '/users/:recipientId/bananas',
    {
      onRequest: requireSession,
      preValidation: [requireActor, requireIntegerPageQuery],
      schema: {
        tags,
        operationId: 'getReceivedBananas',
        summary: 'The bananas a user received, newest first, with their senders',
        params: RecipientIdParamsSchema,
        querystring: PageQuerySchema,
        response: {
          200: BananaListSchema,
          400: ProblemSchema,
          401: ProblemSchema,
          404: ProblemSchema,
        },
      },
    },
    async (request) => {
      const recipientId = idFromPath(request, 'recipientId');
      return listReceivedBananas(request.em, request.actor, recipientId, pageOf(request.query));
    },
  );
};

import {
  BananaBodySchema,
  BananaListSchema,
  BananaParamsSchema,
  BananaSchema,
  EmptyResultSchema,
  ProblemSchema,
  RecipientIdParamsSchema,
  PageQuerySchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageOf, requireIntegerPageQuery } from '../../shared/page-query.ts';
import { callerOf } from '../../shared/as-actor.ts';
import { plainIntegerParams, positiveIdParams } from '../../shared/plain-integer-params.ts';
import { deleteBanana, giveBanana, listReceivedBananas } from './bananas.service.ts';
import { bodyOf } from '../../plugins/wire-conventions.ts';

const tags = ['bananas'];

export const bananasRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/users/:recipientId/bananas',
    {
      // docs/spec.md §4.1 row 17: `[1-9][0-9]*`, so `01` names no one here.
      preValidation: positiveIdParams('recipientId'),
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
    async (request) => {
      return giveBanana(request.em, callerOf(request), request.params.recipientId, bodyOf(request));
    },
  );

  app.delete(
    '/users/:recipientId/bananas/:senderId',
    {
      preValidation: plainIntegerParams('recipientId', 'senderId'),
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
      const { recipientId, senderId } = request.params;
      await deleteBanana(request.em, callerOf(request), recipientId, senderId);
      return {};
    },
  );

  app.get(
    // The same path as giving one, so the same parameter (RecipientIdParamsSchema): the user
    // whose received bananas these are.
    '/users/:recipientId/bananas',
    {
      preValidation: [plainIntegerParams('recipientId'), requireIntegerPageQuery],
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
      // The caller's account is read in the list's own query (shared/as-actor.ts).
      const caller = callerOf(request);
      const { recipientId } = request.params;
      return listReceivedBananas(request.em, caller, recipientId, pageOf(request.query));
    },
  );
};

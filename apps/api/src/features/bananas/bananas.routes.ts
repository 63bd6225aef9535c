import {
  BananaBodySchema,
  BananaListSchema,
  BananaParamsSchema,
  BananaSchema,
  EmptyResultSchema,
  ProblemSchema,
  RecipientIdParamsSchema,
  PageQuerySchema,
  UserIdParamsSchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageOf, requireIntegerPageQuery } from '../../shared/page-query.ts';
import { callerOf } from '../../shared/as-actor.ts';
import { idFromPathAsActor } from '../../shared/path-ids.ts';
import { plainIntegerParams } from '../../shared/plain-integer-params.ts';
import { deleteBanana, giveBanana, listReceivedBananas } from './bananas.service.ts';
import { bodyOf } from '../../plugins/wire-conventions.ts';

const tags = ['bananas'];

export const bananasRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/users/:recipientId/bananas',
    {
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
      const caller = callerOf(request);
      const recipientId = await idFromPathAsActor(request, request.params.recipientId);
      return giveBanana(request.em, caller, recipientId, bodyOf(request));
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
    '/users/:userId/bananas',
    {
      preValidation: [plainIntegerParams('userId'), requireIntegerPageQuery],
      schema: {
        tags,
        operationId: 'getReceivedBananas',
        summary: 'The bananas a user received, newest first, with their senders',
        params: UserIdParamsSchema,
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
      return listReceivedBananas(request.em, caller, request.params.userId, pageOf(request.query));
    },
  );
};

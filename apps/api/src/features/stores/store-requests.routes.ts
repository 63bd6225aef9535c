import {
  ProblemSchema,
  StoreIdParamsSchema,
  PageQuerySchema,
  StoreTeamRequestDecisionSchema,
  StoreTeamRequestListSchema,
  StoreTeamRequestParamsSchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { decideTeamRequest, listTeamRequests } from './store-requests.service.ts';
import { requireActor, requireSession } from '../../plugins/caller.ts';
import { pageOf, requireIntegerPageQuery } from '../../shared/page-query.ts';
import { idFromPath, resourceProblems } from '../../plugins/platform-wire-format.ts';

const problems = resourceProblems;

export const storeRequestsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/stores/:storeId/requests',
    {
      onRequest: requireSession,
      preValidation: [requireActor, requireIntegerPageQuery],
      schema: {
        tags: ['stores'],
        operationId: 'getStoreRequests',
        summary: 'Pending requests to join a store team (docs/spec.md §4.1, row 18)',
        params: StoreIdParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: StoreTeamRequestListSchema, 400: ProblemSchema, ...problems },
      },
    },
    async (request) => {
      const storeId = idFromPath(request, 'storeId');
      return listTeamRequests(request.em, request.actor, storeId, pageOf(request.query));
    },
  );

  app.post(
    '/stores/:storeId/requests/:userId',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['stores'],
        operationId: 'acceptStoreRequest',
        summary: 'Accept a request to join a store team; logged as "request approved"',
        params: StoreTeamRequestParamsSchema,
        response: { 200: StoreTeamRequestDecisionSchema, ...problems },
      },
    },
    async (request) => {
      const storeId = idFromPath(request, 'storeId');
      const userId = idFromPath(request, 'userId');
      return decideTeamRequest(request.em, request.actor, storeId, userId, 'accepted');
    },
  );

  app.delete(
    '/stores/:storeId/requests/:userId',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['stores'],
        operationId: 'declineStoreRequest',
        summary: 'Decline a request to join a store team; logged as "request declined"',
        params: StoreTeamRequestParamsSchema,
        response: { 200: StoreTeamRequestDecisionSchema, ...problems },
      },
    },
    async (request) => {
      const storeId = idFromPath(request, 'storeId');
      const userId = idFromPath(request, 'userId');
      return decideTeamRequest(request.em, request.actor, storeId, userId, 'declined');
    },
  );
};

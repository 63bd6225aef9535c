import {
  ProblemSchema,
  StoreIdParamsSchema,
  PageQuerySchema,
  StoreTeamRequestDecisionSchema,
  StoreTeamRequestListSchema,
  StoreTeamRequestParamsSchema,
} from '@foodshare/schemas';
import { requireActor } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { decideTeamRequest, listTeamRequests } from './store-requests.service.ts';
import { pageOf, requireIntegerPageQuery } from '../../shared/page-query.ts';
import { callerOf } from '../../shared/as-actor.ts';
import { idFromPath, idFromPathAsActor, resourceProblems } from '../../shared/path-ids.ts';

const problems = resourceProblems;

export const storeRequestsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/stores/:storeId/requests',
    {
      preValidation: requireIntegerPageQuery,
      schema: {
        tags: ['stores'],
        operationId: 'getStoreRequests',
        summary: 'Pending requests to join a store team (docs/spec.md §4.1, row 18)',
        params: StoreIdParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: StoreTeamRequestListSchema, 400: ProblemSchema, ...problems },
      },
    },
    // The caller's account is read with the store's facts (shared/as-actor.ts).
    async (request) => {
      const caller = callerOf(request);
      const storeId = await idFromPathAsActor(request, request.params.storeId);
      return listTeamRequests(request.em, caller, storeId, pageOf(request.query));
    },
  );

  app.post(
    '/stores/:storeId/requests/:userId',
    {
      schema: {
        tags: ['stores'],
        operationId: 'acceptStoreRequest',
        summary: 'Accept a request to join a store team; logged as "request approved"',
        params: StoreTeamRequestParamsSchema,
        response: { 200: StoreTeamRequestDecisionSchema, ...problems },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      const { storeId, userId } = request.params;
      return decideTeamRequest(
        request.em,
        actor,
        idFromPath(storeId),
        idFromPath(userId),
        'accepted',
      );
    },
  );

  app.delete(
    '/stores/:storeId/requests/:userId',
    {
      schema: {
        tags: ['stores'],
        operationId: 'declineStoreRequest',
        summary: 'Decline a request to join a store team; logged as "request declined"',
        params: StoreTeamRequestParamsSchema,
        response: { 200: StoreTeamRequestDecisionSchema, ...problems },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      const { storeId, userId } = request.params;
      return decideTeamRequest(
        request.em,
        actor,
        idFromPath(storeId),
        idFromPath(userId),
        'declined',
      );
    },
  );
};

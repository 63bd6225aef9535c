import { OwnResourcesSchema, ProblemSchema } from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerIdOf, requireSession } from '../../plugins/caller.ts';
import { listOwnResources } from './own-resources.service.ts';

export const resourcesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/resources/own',
    {
      onRequest: requireSession,
      schema: {
        tags: ['resources'],
        operationId: 'getOwnResources',
        summary: "The logged-in user's own resources",
        response: { 200: OwnResourcesSchema, 401: ProblemSchema },
      },
    },
    // The session alone suffices: the one query checks the account itself (no actor lookup).
    async (request) => listOwnResources(request.em, callerIdOf(request)),
  );
};

import { OwnResourcesSchema, ProblemSchema } from '@foodshare/schemas';
import { requireSession } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listOwnResources } from './own-resources.service.ts';

export const resourcesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/resources/own',
    {
      schema: {
        tags: ['resources'],
        operationId: 'getOwnResources',
        summary: "The logged-in user's own resources",
        response: { 200: OwnResourcesSchema, 401: ProblemSchema },
      },
    },
    // The session alone suffices: the one query checks the account itself (no actor lookup).
    async (request) => listOwnResources(request.em, requireSession(request).userId),
  );
};

import {
  ProblemSchema,
  ReportListSchema,
  PageQuerySchema,
  UserIdParamsSchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor, requireSession } from '../../plugins/caller.ts';
import { requireIntegerPageQuery } from '../../shared/page-query.ts';
import { idFromPath } from '../../plugins/platform-wire-format.ts';
import { listUserReports } from './reports.service.ts';

export const reportsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/:userId/reports',
    {
      onRequest: requireSession,
      preValidation: [requireActor, requireIntegerPageQuery],
      schema: {
        tags: ['reports'],
        operationId: 'getUserReports',
        summary:
          'The reports about a user, all of them newest first unless paged (orga, never about themselves)',
        params: UserIdParamsSchema,
        querystring: PageQuerySchema,
        response: {
          200: ReportListSchema,
          400: ProblemSchema,
          401: ProblemSchema,
          403: ProblemSchema,
          // Only for a malformed id (docs/design.md §3.2): a user without reports has none.
          404: ProblemSchema,
        },
      },
    },
    async (request) => {
      const { limit = null, offset = 0 } = request.query;
      const userId = idFromPath(request, 'userId');
      return listUserReports(request.em, request.actor, userId, { limit, offset });
    },
  );
};

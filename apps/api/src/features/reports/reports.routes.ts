import {
  ProblemSchema,
  ReportListSchema,
  PageQuerySchema,
  UserIdParamsSchema,
} from '@foodshare/schemas';
import { requireActor } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireIntegerPageQuery } from '../../shared/page-query.ts';
import { plainIntegerParams } from '../../shared/plain-integer-params.ts';
import { listUserReports } from './reports.service.ts';

export const reportsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/:userId/reports',
    {
      preValidation: [plainIntegerParams('userId'), requireIntegerPageQuery],
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
      const actor = await requireActor(request);
      const { limit = null, offset = 0 } = request.query;
      return listUserReports(request.em, actor, request.params.userId, { limit, offset });
    },
  );
};

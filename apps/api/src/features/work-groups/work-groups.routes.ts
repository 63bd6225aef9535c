import {
  GroupApplicationParamsSchema,
  PositiveIdParam,
  ProblemSchema,
  PageQuerySchema,
  WorkGroupApplicationDeclinedSchema,
  WorkGroupApplicationListSchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { declineApplication, listApplications } from './work-group-applications.service.ts';
import { pageOf, requireIntegerPageQuery } from '../../shared/page-query.ts';
import { requireActor, requireSession } from '../../plugins/caller.ts';
import { idFromPath, resourceProblems } from '../../plugins/platform-wire-format.ts';

const problems = resourceProblems;

export const workGroupsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/groups/:groupId/applications',
    {
      onRequest: requireSession,
      preValidation: [requireActor, requireIntegerPageQuery],
      schema: {
        tags: ['work groups'],
        operationId: 'getGroupApplications',
        summary: 'Pending applications to a working group',
        params: Type.Object({ groupId: PositiveIdParam() }, { title: 'GroupIdParams' }),
        querystring: PageQuerySchema,
        response: { 200: WorkGroupApplicationListSchema, 400: ProblemSchema, ...problems },
      },
    },
    async (request) => {
      const groupId = idFromPath(request, 'groupId');
      return listApplications(request.em, request.actor, groupId, pageOf(request.query));
    },
  );

  app.delete(
    '/groups/:groupId/applications/:userId',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['work groups'],
        operationId: 'declineGroupApplication',
        summary: 'Decline an application to a working group',
        params: GroupApplicationParamsSchema,
        response: { 200: WorkGroupApplicationDeclinedSchema, ...problems },
      },
    },
    async (request) => {
      const groupId = idFromPath(request, 'groupId');
      const userId = idFromPath(request, 'userId');
      return declineApplication(request.em, request.actor, groupId, userId);
    },
  );
};

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
import { callerOf, parsedAsActor } from '../../shared/as-actor.ts';
import { idFromPath, idFromPathAsActor, resourceProblems } from '../../shared/path-ids.ts';

const problems = resourceProblems;

export const workGroupsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/groups/:groupId/applications',
    {
      preValidation: requireIntegerPageQuery,
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
      // The caller's account is read with the group's facts (shared/as-actor.ts).
      const caller = callerOf(request);
      const groupId = await idFromPathAsActor(request, request.params.groupId);
      return listApplications(request.em, caller, groupId, pageOf(request.query));
    },
  );

  app.delete(
    '/groups/:groupId/applications/:userId',
    {
      schema: {
        tags: ['work groups'],
        operationId: 'declineGroupApplication',
        summary: 'Decline an application to a working group',
        params: GroupApplicationParamsSchema,
        response: { 200: WorkGroupApplicationDeclinedSchema, ...problems },
      },
    },
    // The caller's account is read with the group's facts (shared/as-actor.ts).
    async (request) => {
      const caller = callerOf(request);
      const { groupId, userId } = request.params;
      const ids = await parsedAsActor(request, () => [idFromPath(groupId), idFromPath(userId)]);
      return declineApplication(request.em, caller, ids[0]!, ids[1]!);
    },
  );
};

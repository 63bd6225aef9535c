import {
  GroupApplicationParamsSchema,
  PositiveIdParam,
  WorkGroupApplicationDeclinedSchema,
  WorkGroupApplicationListSchema,
} from '@foodshare/schemas';
import { requireActor } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { declineApplication, listApplications } from './work-group-applications.service.ts';
import { idFromPath, resourceProblems } from '../../shared/path-ids.ts';

const problems = resourceProblems;

export const workGroupsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/groups/:groupId/applications',
    {
      schema: {
        tags: ['work groups'],
        summary: 'Pending applications to a working group',
        params: Type.Object({ groupId: PositiveIdParam() }, { title: 'GroupIdParams' }),
        response: { 200: WorkGroupApplicationListSchema, ...problems },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      return listApplications(request.em, actor, idFromPath(request.params.groupId));
    },
  );

  app.delete(
    '/groups/:groupId/applications/:userId',
    {
      schema: {
        tags: ['work groups'],
        summary: 'Decline an application to a working group',
        params: GroupApplicationParamsSchema,
        response: { 200: WorkGroupApplicationDeclinedSchema, ...problems },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      const { groupId, userId } = request.params;
      return declineApplication(request.em, actor, idFromPath(groupId), idFromPath(userId));
    },
  );
};

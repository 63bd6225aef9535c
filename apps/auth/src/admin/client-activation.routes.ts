import { setOAuthClientActive } from '@foodshare/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseIdParam } from '@foodshare/schemas';
import { ADMIN_BASE_PATH, adminPaths } from './admin.page.ts';
import {
  actorId,
  ClientParamsSchema,
  endGrantsOf,
  formRoute,
  isClientGone,
  sendNotFound,
} from './admin-request.ts';
import { FormBodySchema } from './oauth-client-form.ts';

/** Switching a client off (which ends its grants) and on again. */
export const clientActivationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const endGrants = endGrantsOf(app);
  for (const active of [true, false]) {
    app.post(
      active ? `${ADMIN_BASE_PATH}/:id/activate` : `${ADMIN_BASE_PATH}/:id/deactivate`,
      { ...formRoute, schema: { params: ClientParamsSchema, body: FormBodySchema } },
      async (request, reply) => {
        const id = parseIdParam(request.params.id);
        if (id === undefined) return sendNotFound(request, reply);
        const actor = await actorId(request);
        let result;
        try {
          result = await setOAuthClientActive(request.em, { id }, active, {
            actorId: actor,
            endGrants,
          });
        } catch (error) {
          if (isClientGone(error)) return sendNotFound(request, reply);
          throw error;
        }
        if (result.changed) {
          app.oauth.audit(request, 'client_changed', {
            clientId: result.clientId,
            actorId: actor,
            fields: ['active'],
          });
        }
        return reply.redirect(
          `${adminPaths.client(id)}?done=${active ? 'activated' : 'deactivated'}`,
          303,
        );
      },
    );
  }
};

import type { AuthServices } from '../auth-services.ts';
import { setOAuthClientActive } from '@foodshare/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_BASE_PATH, adminPaths } from './admin.page.ts';
import { changeClient, ClientParamsSchema, endGrantsOf, formRoute } from './admin-request.ts';
import { FormBodySchema } from './oauth-client-form.ts';

/** Switching a client off (which ends its grants) and on again. */
export const clientActivationRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (
  app,
  services,
) => {
  const endGrants = endGrantsOf(services);
  for (const active of [true, false]) {
    app.post(
      active ? `${ADMIN_BASE_PATH}/:id/activate` : `${ADMIN_BASE_PATH}/:id/deactivate`,
      { ...formRoute, schema: { params: ClientParamsSchema, body: FormBodySchema } },
      (request, reply) =>
        changeClient(services, request, reply, async (id, actorId) => {
          const result = await setOAuthClientActive(request.em, { id }, active, {
            actorId,
            endGrants,
          });
          return {
            audit: result.changed
              ? { event: 'client_changed', clientId: result.clientId, fields: ['active'] }
              : null,
            redirectTo: `${adminPaths.client(id)}?done=${active ? 'activated' : 'deactivated'}`,
          };
        }),
    );
  }
};

import type { AuthServices } from '../auth-services.ts';
import { deleteOAuthClient } from '@foodshare/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_BASE_PATH, adminPaths, sendAdminPage } from './admin.page.ts';
import {
  changeClient,
  ClientParamsSchema,
  csrfToken,
  endGrantsOf,
  formRoute,
  loadClient,
  localeOf,
  sendNotFound,
} from './admin-request.ts';
import { deleteConfirmBody } from './client-actions.page.ts';
import { FormBodySchema } from './oauth-client-form.ts';

/** Deleting a client (which ends its grants), after a page that asks to confirm. */
export const clientDeletionRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (
  app,
  services,
) => {
  const endGrants = endGrantsOf(services);
  app.get(
    `${ADMIN_BASE_PATH}/:id/delete`,
    { schema: { params: ClientParamsSchema } },
    async (request, reply) => {
      const { locale, texts } = localeOf(request);
      const client = await loadClient(request, request.params.id);
      if (!client) return sendNotFound(request, reply);
      return sendAdminPage(reply, {
        locale,
        title: texts.deletion.title(client.clientId),
        body: deleteConfirmBody(texts, client, csrfToken(request)),
      });
    },
  );

  app.post(
    `${ADMIN_BASE_PATH}/:id/delete`,
    { ...formRoute, schema: { params: ClientParamsSchema, body: FormBodySchema } },
    (request, reply) =>
      changeClient(services, request, reply, async (id, actorId) => {
        const deleted = await deleteOAuthClient(request.em, { id }, { actorId, endGrants });
        return {
          audit: { event: 'client_deleted', clientId: deleted.clientId },
          redirectTo: `${adminPaths.list}?done=deleted`,
        };
      }),
  );
};

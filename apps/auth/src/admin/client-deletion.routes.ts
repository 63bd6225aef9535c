import { deleteOAuthClient } from '@foodshare/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseIdParam } from '@foodshare/schemas';
import { ADMIN_BASE_PATH, adminPaths, sendAdminPage } from './admin.page.ts';
import {
  actorId,
  ClientParamsSchema,
  csrfToken,
  endGrantsOf,
  formRoute,
  isClientGone,
  loadClient,
  localeOf,
  sendNotFound,
} from './admin-request.ts';
import { deleteConfirmBody } from './client-actions.page.ts';
import { FormBodySchema } from './oauth-client-form.ts';

/** Deleting a client (which ends its grants), after a page that asks to confirm. */
export const clientDeletionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const endGrants = endGrantsOf(app);
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
    async (request, reply) => {
      const id = parseIdParam(request.params.id);
      if (id === undefined) return sendNotFound(request, reply);
      const actor = await actorId(request);
      let deleted;
      try {
        deleted = await deleteOAuthClient(request.em, { id }, { actorId: actor, endGrants });
      } catch (error) {
        if (isClientGone(error)) return sendNotFound(request, reply);
        throw error;
      }
      app.oauth.audit(request, 'client_deleted', { clientId: deleted.clientId, actorId: actor });
      return reply.redirect(`${adminPaths.list}?done=deleted`, 303);
    },
  );
};

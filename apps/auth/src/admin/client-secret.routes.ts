import {
  AccountError,
  endPreviousOAuthClientSecret,
  regenerateOAuthClientSecret,
} from '@foodshare/domain';
import { parseIdParam } from '@foodshare/schemas';
import { requireSession } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_BASE_PATH, adminPaths, sendAdminPage } from './admin.page.ts';
import {
  actorId,
  ClientParamsSchema,
  formRoute,
  isClientGone,
  loadClient,
  localeOf,
  sendNotFound,
} from './admin-request.ts';
import { secretBody } from './client-actions.page.ts';
import { FormBodySchema } from './oauth-client-form.ts';
import { SecretFlashStore } from './secret-flash.store.ts';

/**
 * A confidential client's secret: a new one (the previous one keeps working for a grace
 * period), the end of that grace period, and the one page view that shows a new secret.
 */
export const clientSecretRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const flashes = new SecretFlashStore(app.kv);

  app.post(
    `${ADMIN_BASE_PATH}/:id/secret`,
    { ...formRoute, schema: { params: ClientParamsSchema, body: FormBodySchema } },
    async (request, reply) => {
      const id = parseIdParam(request.params.id);
      if (id === undefined) return sendNotFound(request, reply);
      const actor = await actorId(request);
      let regenerated;
      try {
        regenerated = await regenerateOAuthClientSecret(
          request.em,
          { id },
          { actorId: actor, pepper: app.oauth.secrets.clientSecretPepper },
        );
      } catch (error) {
        if (isClientGone(error)) return sendNotFound(request, reply);
        // A public client has nothing to regenerate: its page says so.
        if (error instanceof AccountError && error.code === 'CLIENT_NOT_CONFIDENTIAL') {
          return reply.redirect(adminPaths.client(id), 303);
        }
        throw error;
      }
      app.oauth.audit(request, 'client_changed', {
        clientId: regenerated.client.clientId,
        actorId: actor,
        fields: ['secret'],
      });
      await flashes.put(requireSession(request).id, id, regenerated.secret);
      return reply.redirect(adminPaths.secret(id), 303);
    },
  );

  // A previous secret that may have leaked must not keep working for the rest of its grace period.
  app.post(
    `${ADMIN_BASE_PATH}/:id/secret/end-previous`,
    { ...formRoute, schema: { params: ClientParamsSchema, body: FormBodySchema } },
    async (request, reply) => {
      const id = parseIdParam(request.params.id);
      if (id === undefined) return sendNotFound(request, reply);
      const actor = await actorId(request);
      let result;
      try {
        result = await endPreviousOAuthClientSecret(request.em, { id }, { actorId: actor });
      } catch (error) {
        if (isClientGone(error)) return sendNotFound(request, reply);
        throw error;
      }
      if (result.ended) {
        app.oauth.audit(request, 'client_changed', {
          clientId: result.clientId,
          actorId: actor,
          fields: ['previousSecret'],
        });
      }
      const done = result.ended ? 'previousSecretEnded' : 'unchanged';
      return reply.redirect(`${adminPaths.client(id)}?done=${done}`, 303);
    },
  );

  app.get(
    `${ADMIN_BASE_PATH}/:id/secret`,
    { schema: { params: ClientParamsSchema } },
    async (request, reply) => {
      const { locale, texts } = localeOf(request);
      const client = await loadClient(request, request.params.id);
      if (!client) return sendNotFound(request, reply);
      const secret = await flashes.take(requireSession(request).id, client.id);
      return sendAdminPage(reply, {
        locale,
        title: texts.secret.title,
        body: secretBody(locale, texts, client, secret, new Date()),
      });
    },
  );
};

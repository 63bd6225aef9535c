import type { AuthServices } from '../auth-services.ts';
import {
  AccountError,
  endPreviousOAuthClientSecret,
  regenerateOAuthClientSecret,
} from '@foodshare/domain';
import { requireSession } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_BASE_PATH, adminPaths, sendAdminPage } from './admin.page.ts';
import {
  changeClient,
  ClientParamsSchema,
  formRoute,
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
export const clientSecretRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (
  app,
  services,
) => {
  const flashes = new SecretFlashStore(app.kv);

  app.post(
    `${ADMIN_BASE_PATH}/:id/secret`,
    { ...formRoute, schema: { params: ClientParamsSchema, body: FormBodySchema } },
    (request, reply) =>
      changeClient(services, request, reply, async (id, actorId) => {
        let regenerated;
        try {
          regenerated = await regenerateOAuthClientSecret(
            request.em,
            { id },
            { actorId, pepper: services.secrets.clientSecretPepper },
          );
        } catch (error) {
          // A public client has nothing to regenerate: its page says so.
          if (error instanceof AccountError && error.code === 'CLIENT_NOT_CONFIDENTIAL') {
            return { audit: null, redirectTo: adminPaths.client(id) };
          }
          throw error;
        }
        const { client, secret } = regenerated;
        return {
          audit: { event: 'client_changed', clientId: client.clientId, fields: ['secret'] },
          redirectTo: adminPaths.secret(id),
          afterwards: () => flashes.put(requireSession(request).id, id, secret),
        };
      }),
  );

  // A previous secret that may have leaked must not keep working for the rest of its grace period.
  app.post(
    `${ADMIN_BASE_PATH}/:id/secret/end-previous`,
    { ...formRoute, schema: { params: ClientParamsSchema, body: FormBodySchema } },
    (request, reply) =>
      changeClient(services, request, reply, async (id, actorId) => {
        const result = await endPreviousOAuthClientSecret(request.em, { id }, { actorId });
        const done = result.ended ? 'previousSecretEnded' : 'unchanged';
        return {
          audit: result.ended
            ? { event: 'client_changed', clientId: result.clientId, fields: ['previousSecret'] }
            : null,
          redirectTo: `${adminPaths.client(id)}?done=${done}`,
        };
      }),
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

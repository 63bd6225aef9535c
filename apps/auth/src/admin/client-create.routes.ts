import type { AuthServices } from '../auth-services.ts';
import { createOAuthClient } from '@foodshare/domain';
import { requireSession } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { adminPaths, sendAdminPage } from './admin.page.ts';
import { actorId, csrfToken, formRoute, localeOf } from './admin-request.ts';
import { clientFormBody } from './client-form.page.ts';
import {
  emptyClientForm,
  fieldErrorsOf,
  FormBodySchema,
  readClientForm,
  validateClientForm,
  type ClientFormErrors,
  type ClientFormValues,
} from './oauth-client-form.ts';
import { loadRegionTree } from './oauth-clients-admin.service.ts';
import { SecretFlashStore } from './secret-flash.store.ts';
import { backchannelLogoutAllowedHosts } from '../config.ts';

async function sendCreateForm(
  request: FastifyRequest,
  reply: FastifyReply,
  values: ClientFormValues,
  errors: ClientFormErrors,
) {
  const { locale, texts } = localeOf(request);
  return sendAdminPage(reply, {
    locale,
    status: Object.keys(errors).length > 0 ? 400 : 200,
    title: texts.newClient,
    body: clientFormBody({
      texts,
      values,
      errors,
      regions: await loadRegionTree(request.em),
      csrfToken: csrfToken(request),
      action: adminPaths.newClient,
      mode: 'create',
    }),
  });
}

/** Registering a client; a confidential one's secret is shown once, on the page after. */
export const clientCreateRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (
  app,
  services,
) => {
  const flashes = new SecretFlashStore(app.kv);

  app.get(adminPaths.newClient, async (request, reply) =>
    sendCreateForm(request, reply, emptyClientForm(), {}),
  );

  app.post(
    adminPaths.newClient,
    { ...formRoute, schema: { body: FormBodySchema } },
    async (request, reply) => {
      const { texts } = localeOf(request);
      const values = readClientForm(request.body);
      const checked = validateClientForm(
        values,
        texts,
        backchannelLogoutAllowedHosts(services.config),
      );
      if (!checked.ok) return sendCreateForm(request, reply, values, checked.errors);
      const actor = await actorId(request);
      let created;
      try {
        created = await createOAuthClient(request.em, checked.input, {
          pepper: services.secrets.clientSecretPepper,
          backchannelLogoutAllowedHosts: backchannelLogoutAllowedHosts(services.config),
          actorId: actor,
        });
      } catch (error) {
        const errors = fieldErrorsOf(error, texts);
        if (errors) return sendCreateForm(request, reply, values, errors);
        throw error;
      }
      const { client, secret } = created;
      services.audit(request, 'client_created', { clientId: client.clientId, actorId: actor });
      if (secret !== null) {
        await flashes.put(requireSession(request).id, client.id, secret);
        return reply.redirect(adminPaths.secret(client.id), 303);
      }
      return reply.redirect(`${adminPaths.client(client.id)}?done=created`, 303);
    },
  );
};

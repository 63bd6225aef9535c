import type { AuthServices } from '../auth-services.ts';
import { updateOAuthClient } from '@foodshare/domain';
import { requireSession } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../pages/html.ts';
import { ADMIN_BASE_PATH, adminPaths, notice, sendAdminPage } from './admin.page.ts';
import {
  actorId,
  announceClientChange,
  ClientParamsSchema,
  csrfToken,
  formRoute,
  isClientGone,
  loadClient,
  localeOf,
  NoticeQuerySchema,
  sendNotFound,
} from './admin-request.ts';
import { auditRegionIds, auditTable } from './audit-log.page.ts';
import { clientActionsBody } from './client-actions.page.ts';
import { clientFormBody } from './client-form.page.ts';
import {
  clientFormFromDetail,
  fieldErrorsOf,
  FormBodySchema,
  readClientForm,
  validateClientForm,
  type ClientFormErrors,
  type ClientFormValues,
} from './oauth-client-form.ts';
import {
  listAuditEntries,
  loadRegionTree,
  regionNames,
  type ClientDetail,
} from './oauth-clients-admin.service.ts';
import { SecretFlashStore } from './secret-flash.store.ts';
import { backchannelLogoutAllowedHosts } from '../config.ts';

const CLIENT_AUDIT_LIMIT = 100;

async function clientAuditSection(request: FastifyRequest, clientId: string) {
  const { locale, texts } = localeOf(request);
  const entries = await listAuditEntries(request.em, { clientId, limit: CLIENT_AUDIT_LIMIT });
  const names = await regionNames(request.em, auditRegionIds(entries));
  return html`<h2>${texts.audit.forClient}</h2>
    ${auditTable(locale, texts, entries, names, false)}`;
}

/** The client's page: its form, the actions on it, and its audit trail. */
async function sendEditForm(
  request: FastifyRequest,
  reply: FastifyReply,
  client: ClientDetail,
  values: ClientFormValues,
  errors: ClientFormErrors,
  done?: string,
) {
  const { locale, texts } = localeOf(request);
  const token = csrfToken(request);
  return sendAdminPage(reply, {
    locale,
    status: Object.keys(errors).length > 0 ? 400 : 200,
    title: texts.editClient(client.clientId),
    body: html`${notice(texts, done)}
    ${clientFormBody({
      texts,
      values,
      errors,
      regions: await loadRegionTree(request.em),
      csrfToken: token,
      action: adminPaths.client(client.id),
      mode: 'edit',
    })}
    ${clientActionsBody(locale, texts, client, token, new Date())}
    ${await clientAuditSection(request, client.clientId)}`,
  });
}

/** Reading and changing a client; switching it to confidential shows its new secret once. */
export const clientEditRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (app, services) => {
  const flashes = new SecretFlashStore(app.kv);

  app.get(
    `${ADMIN_BASE_PATH}/:id`,
    { schema: { params: ClientParamsSchema, querystring: NoticeQuerySchema } },
    async (request, reply) => {
      const client = await loadClient(request, request.params.id);
      if (!client) return sendNotFound(request, reply);
      return sendEditForm(
        request,
        reply,
        client,
        clientFormFromDetail(client),
        {},
        request.query.done,
      );
    },
  );

  app.post(
    `${ADMIN_BASE_PATH}/:id`,
    { ...formRoute, schema: { params: ClientParamsSchema, body: FormBodySchema } },
    async (request, reply) => {
      const { texts } = localeOf(request);
      const client = await loadClient(request, request.params.id);
      if (!client) return sendNotFound(request, reply);
      // The client id is not editable: users' consents and issued tokens name it.
      const values = { ...readClientForm(request.body), clientId: client.clientId };
      const checked = validateClientForm(
        values,
        texts,
        backchannelLogoutAllowedHosts(services.config),
        client.backchannelLogoutUri,
      );
      if (!checked.ok) return sendEditForm(request, reply, client, values, checked.errors);
      const actor = await actorId(request);
      let updated;
      try {
        const { clientId: _fixed, ...update } = checked.input;
        updated = await updateOAuthClient(request.em, { id: client.id }, update, {
          actorId: actor,
          pepper: services.secrets.clientSecretPepper,
          backchannelLogoutAllowedHosts: backchannelLogoutAllowedHosts(services.config),
        });
      } catch (error) {
        if (isClientGone(error)) return sendNotFound(request, reply);
        const errors = fieldErrorsOf(error, texts);
        if (errors) return sendEditForm(request, reply, client, values, errors);
        throw error;
      }
      if (updated.changedFields.length > 0) {
        services.audit(request, 'client_changed', {
          clientId: client.clientId,
          actorId: actor,
          fields: updated.changedFields,
        });
        await announceClientChange(services, request, client.clientId);
      }
      if (updated.secret !== null) {
        await flashes.put(requireSession(request).id, client.id, updated.secret);
        return reply.redirect(adminPaths.secret(client.id), 303);
      }
      const done = updated.changedFields.length > 0 ? 'updated' : 'unchanged';
      return reply.redirect(`${adminPaths.client(client.id)}?done=${done}`, 303);
    },
  );
};

import {
  AccountError,
  createOAuthClient,
  deleteOAuthClient,
  endPreviousOAuthClientSecret,
  regenerateOAuthClientSecret,
  setOAuthClientActive,
  updateOAuthClient,
} from '@foodshare/domain';
import { parseIdParam } from '@foodshare/schemas';
import { requireActor, requireSession } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { FORM_TOKEN_FIELD, formTokenMatches } from '../pages/form-token.ts';
import { html } from '../pages/html.ts';
import { pickLocale, type Locale } from '../pages/locale.ts';
import { checkAdminAccess } from './admin-access.ts';
import {
  ADMIN_BASE_PATH,
  adminPaths,
  notice,
  sendAdminMessage,
  sendAdminPage,
} from './admin-page.ts';
import { adminTextsFor, type AdminTexts } from './admin-texts.ts';
import { auditRegionIds, auditTable } from './audit-log.page.ts';
import { clientActionsBody, deleteConfirmBody, secretBody } from './client-actions.page.ts';
import { clientFormBody } from './client-form.page.ts';
import { clientListBody } from './client-list.page.ts';
import { loginLocation } from './login-location.ts';
import {
  clientFormFromDetail,
  emptyClientForm,
  formField,
  FormBodySchema,
  readClientForm,
  validateClientForm,
  type ClientFormErrors,
  type ClientFormValues,
} from './oauth-client-form.ts';
import {
  findClient,
  listAuditEntries,
  listClients,
  loadRegionTree,
  regionNames,
  type ClientDetail,
} from './oauth-clients-admin.service.ts';
import { SecretFlashStore } from './secret-flash.store.ts';

const CLIENT_AUDIT_LIMIT = 100;
const GLOBAL_AUDIT_LIMIT = 200;

const NoticeQuerySchema = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
// Any string: a malformed id is answered with the admin's own 404 page, not a JSON problem.
const ClientParamsSchema = Type.Object({ id: Type.String() });

// Forms cannot send the X-CSRF-Token header; the preHandler below checks the form's field.
const formRoute = { config: { csrf: false } } as const;

function localeOf(request: FastifyRequest): { locale: Locale; texts: AdminTexts } {
  const locale = pickLocale(request.headers['accept-language']);
  return { locale, texts: adminTextsFor(locale) };
}

/**
 * /admin/oauthclients: server-rendered pages for the OAuth client administration group
 * (docs/design.md §4.10). Every route, GET or POST, passes the access check first; every POST
 * carries the session's CSRF token as a form field and answers with a 303 (post/redirect/get), or
 * with the form again (400) when an entry is wrong. Each change and its audit row commit in one
 * transaction (the domain services).
 */
export const oauthClientsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const flashes = new SecretFlashStore(app.kv);
  const pepper = () => app.oauth.secrets.clientSecretPepper;
  // A deactivated or deleted client loses every grant it holds: users' remembered consents and
  // all its tokens. Run inside the change's transaction, so the change fails if this does, and
  // again after the commit (OAuthClientEndOptions.endGrants says why).
  const endGrants = (clientId: string, databaseNow: Date) =>
    app.tokenState.endClientGrants(clientId, databaseNow);

  // Hooks of this plugin apply to its routes only (no fastify-plugin wrapper).
  app.addHook('onRequest', async (request, reply) => {
    const access = await checkAdminAccess(request);
    if (access.kind === 'allowed') return;
    if (access.kind === 'login') return reply.redirect(loginLocation(request), 303);
    const { locale, texts } = localeOf(request);
    return sendAdminMessage(reply, locale, texts.forbidden, 403, { navigation: false });
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const body = Value.Check(FormBodySchema, request.body) ? request.body : undefined;
    if (formTokenMatches(request.session?.csrfToken, formField(body, FORM_TOKEN_FIELD))) return;
    const { locale, texts } = localeOf(request);
    return sendAdminMessage(reply, locale, texts.formExpired, 403);
  });

  const csrfToken = (request: FastifyRequest) => requireSession(request).csrfToken;
  const actorId = async (request: FastifyRequest) => (await requireActor(request)).id;

  function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
    const { locale, texts } = localeOf(request);
    return sendAdminMessage(reply, locale, texts.notFound, 404);
  }

  async function clientAuditSection(request: FastifyRequest, clientId: string) {
    const { locale, texts } = localeOf(request);
    const entries = await listAuditEntries(request.em, { clientId, limit: CLIENT_AUDIT_LIMIT });
    const names = await regionNames(request.em, auditRegionIds(entries));
    return html`<h2>${texts.audit.forClient}</h2>
      ${auditTable(locale, texts, entries, names, false)}`;
  }

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

  /** A refusal of the domain service that concerns one field of the form. */
  function fieldErrorOf(error: unknown, texts: AdminTexts): ClientFormErrors | null {
    if (!(error instanceof AccountError)) return null;
    if (error.code === 'CLIENT_ID_TAKEN') return { clientId: [texts.errors.clientIdTaken] };
    if (error.code === 'REGION_NOT_FOUND')
      return { requiredRegionIds: [texts.errors.unknownRegion] };
    return null;
  }

  function isClientGone(error: unknown): boolean {
    return error instanceof AccountError && error.code === 'CLIENT_NOT_FOUND';
  }

  async function loadClient(request: FastifyRequest, id: string): Promise<ClientDetail | null> {
    const rowId = parseIdParam(id);
    return rowId === undefined ? null : findClient(request.em, rowId);
  }

  app.get(
    ADMIN_BASE_PATH,
    { schema: { querystring: NoticeQuerySchema } },
    async (request, reply) => {
      const { locale, texts } = localeOf(request);
      const clients = await listClients(request.em);
      return sendAdminPage(reply, {
        locale,
        title: texts.title,
        body: html`${notice(texts, request.query.done)}
          <p><a href="${adminPaths.newClient}">${texts.newClient}</a></p>
          ${clientListBody(locale, texts, clients)}`,
      });
    },
  );

  app.get(adminPaths.audit, async (request, reply) => {
    const { locale, texts } = localeOf(request);
    const entries = await listAuditEntries(request.em, { limit: GLOBAL_AUDIT_LIMIT });
    const names = await regionNames(request.em, auditRegionIds(entries));
    return sendAdminPage(reply, {
      locale,
      title: texts.audit.title,
      body: auditTable(locale, texts, entries, names, true),
    });
  });

  app.get(adminPaths.newClient, async (request, reply) =>
    sendCreateForm(request, reply, emptyClientForm(), {}),
  );

  app.post(
    adminPaths.newClient,
    { ...formRoute, schema: { body: FormBodySchema } },
    async (request, reply) => {
      const { texts } = localeOf(request);
      const values = readClientForm(request.body);
      const checked = validateClientForm(values, texts);
      if (!checked.ok) return sendCreateForm(request, reply, values, checked.errors);
      const actor = await actorId(request);
      let created;
      try {
        created = await createOAuthClient(request.em, checked.input, {
          pepper: pepper(),
          actorId: actor,
        });
      } catch (error) {
        const errors = fieldErrorOf(error, texts);
        if (errors) return sendCreateForm(request, reply, values, errors);
        throw error;
      }
      const { client, secret } = created;
      app.oauth.audit(request, 'client_created', { clientId: client.clientId, actorId: actor });
      if (secret !== null) {
        await flashes.put(requireSession(request).id, client.id, secret);
        return reply.redirect(adminPaths.secret(client.id), 303);
      }
      return reply.redirect(`${adminPaths.client(client.id)}?done=created`, 303);
    },
  );

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
      const checked = validateClientForm(values, texts);
      if (!checked.ok) return sendEditForm(request, reply, client, values, checked.errors);
      const actor = await actorId(request);
      let updated;
      try {
        const { clientId: _fixed, ...update } = checked.input;
        updated = await updateOAuthClient(request.em, { id: client.id }, update, {
          actorId: actor,
          pepper: pepper(),
        });
      } catch (error) {
        if (isClientGone(error)) return sendNotFound(request, reply);
        const errors = fieldErrorOf(error, texts);
        if (errors) return sendEditForm(request, reply, client, values, errors);
        throw error;
      }
      if (updated.changedFields.length > 0) {
        app.oauth.audit(request, 'client_changed', {
          clientId: client.clientId,
          actorId: actor,
          fields: updated.changedFields,
        });
      }
      if (updated.secret !== null) {
        await flashes.put(requireSession(request).id, client.id, updated.secret);
        return reply.redirect(adminPaths.secret(client.id), 303);
      }
      const done = updated.changedFields.length > 0 ? 'updated' : 'unchanged';
      return reply.redirect(`${adminPaths.client(client.id)}?done=${done}`, 303);
    },
  );

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
          { actorId: actor, pepper: pepper() },
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

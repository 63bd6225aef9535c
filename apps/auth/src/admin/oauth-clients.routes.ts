import type { AuthServices } from '../auth-services.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Value } from 'typebox/value';
import { FORM_TOKEN_FIELD, formTokenMatches } from '../pages/form-token.ts';
import { checkAdminAccess } from './admin-access.ts';
import { sendAdminMessage } from './admin.page.ts';
import { localeOf } from './admin-request.ts';
import { clientActivationRoutes } from './client-activation.routes.ts';
import { clientCreateRoutes } from './client-create.routes.ts';
import { clientDeletionRoutes } from './client-deletion.routes.ts';
import { clientEditRoutes } from './client-edit.routes.ts';
import { clientListRoutes } from './client-list.routes.ts';
import { clientSecretRoutes } from './client-secret.routes.ts';
import { formField, FormBodySchema } from './oauth-client-form.ts';
import { loginLocation } from './login-location.ts';

/**
 * /admin/oauthclients: server-rendered pages for the OAuth client administration group
 * (docs/design.md §4.10). Every route, GET or POST, passes the access check first; every POST
 * carries the session's CSRF token as a form field and answers with a 303 (post/redirect/get), or
 * with the form again (400) when an entry is wrong. Each change and its audit row commit in one
 * transaction (the domain services).
 */
export const oauthClientsAdminRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (
  app,
  services,
) => {
  // Hooks of this plugin apply to its routes and those of the plugins it registers only (no
  // fastify-plugin wrapper).
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

  await app.register(clientListRoutes, services);
  await app.register(clientCreateRoutes, services);
  await app.register(clientEditRoutes, services);
  await app.register(clientActivationRoutes, services);
  await app.register(clientDeletionRoutes, services);
  await app.register(clientSecretRoutes, services);
};

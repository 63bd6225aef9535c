import type { AuthServices } from '../../auth-services.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Problem } from '@foodshare/server-kit';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { sendFormExpiredPage } from '../../pages/error.page.ts';
import { formTokenMatches } from '../../pages/form-token.ts';
import { pickLocale } from '../../pages/locale.ts';
import { CONNECTED_APPS_PATH, LOGIN_PATH } from '../../pages/page-paths.ts';
import { connectedAppsOf, type ConnectedApp } from './connected-apps.ts';
import { sendConnectedAppsPage } from './connected-apps.page.ts';

/** The JSON view of connected apps, for the user's own session (a settings page of the api). */
export const GRANTS_PATH = '/oauth/grants';

// The client id grammar of the client registry (oauth-clients.service.ts).
const RevokeParamsSchema = Type.Object({
  clientId: Type.String({ pattern: '^[A-Za-z0-9._~-]{1,100}$' }),
});

const ConnectedAppSchema = Type.Object({
  clientId: Type.String(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  grantedAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  remembered: Type.Boolean(),
});

const toJson = (connected: ConnectedApp) => ({
  ...connected,
  grantedAt: connected.grantedAt.toISOString(),
  lastUsedAt: connected.lastUsedAt?.toISOString() ?? null,
});

const RevokeFormSchema = Type.Object({ csrf: Type.Optional(Type.String({ maxLength: 64 })) });

/**
 * Ends what the user allowed the client (docs/oauth.md §6.2): codes not yet exchanged, refresh
 * families, their access tokens, and the remembered consent. Tokens first: should the second step
 * fail, the app is still listed and the user can try again.
 */
async function revokeApp(
  services: AuthServices,
  request: FastifyRequest,
  userId: number,
  clientId: string,
) {
  const hadTokens = await services.grantRevocation.revokeGrant(userId, clientId);
  const hadConsent = await services.consents.revoke(userId, clientId);
  // Back-Channel Logout 1.0 (docs/oauth.md §9.2): the app's session with the user ends too.
  // Only when something of the user's was revoked: otherwise any user could make the server
  // post to any client, as often as they like, naming themselves to apps they never used.
  if (hadTokens || hadConsent) services.backchannelLogout.appRevoked(userId, clientId);
  services.audit(request, 'consent_revoked', { userId, clientId, hadConsent });
}

/**
 * "Connected apps" (docs/oauth.md §6.2): every grant the user made, remembered or not, each
 * revocable, as a page with forms and as JSON for the user's own session.
 */
export const connectedAppsRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (
  app,
  services,
) => {
  app.get(CONNECTED_APPS_PATH, async (request, reply) => {
    const { session } = request;
    // The login page leads here when it has no authorization request to continue.
    if (!session) return reply.redirect(LOGIN_PATH, 302);
    return sendConnectedAppsPage(reply, {
      locale: pickLocale(request.headers['accept-language']),
      token: session.csrfToken,
      apps: await connectedAppsOf(services, request.em, session.userId),
    });
  });

  app.get(
    GRANTS_PATH,
    {
      schema: {
        tags: ['interaction'],
        summary: 'The apps the signed-in user has allowed access, remembered or not',
        response: { 200: Type.Array(ConnectedAppSchema) },
      },
    },
    async (request, reply) => {
      const { session } = request;
      if (!session) throw Problem.unauthorized();
      void reply.header('cache-control', 'no-store');
      return (await connectedAppsOf(services, request.em, session.userId)).map(toJson);
    },
  );

  // The session's X-CSRF-Token header is checked before this runs (the csrf plugin).
  app.delete(
    `${GRANTS_PATH}/:clientId`,
    {
      schema: {
        tags: ['interaction'],
        summary: 'Revokes an app: its codes, refresh tokens, access tokens and remembered consent',
        params: RevokeParamsSchema,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { session } = request;
      if (!session) throw Problem.unauthorized();
      await revokeApp(services, request, session.userId, request.params.clientId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${CONNECTED_APPS_PATH}/:clientId/revoke`,
    {
      // A form cannot send the X-CSRF-Token header; the field is checked below instead.
      config: { csrf: false },
      schema: { tags: ['interaction'], params: RevokeParamsSchema, body: RevokeFormSchema },
    },
    async (request, reply) => {
      const { session } = request;
      if (!session) return reply.redirect(LOGIN_PATH, 303);
      if (!formTokenMatches(session.csrfToken, request.body.csrf)) {
        return sendFormExpiredPage(reply, pickLocale(request.headers['accept-language']));
      }
      await revokeApp(services, request, session.userId, request.params.clientId);
      return reply.redirect(CONNECTED_APPS_PATH, 303);
    },
  );
};

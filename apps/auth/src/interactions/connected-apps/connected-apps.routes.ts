import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EntityManager } from '@foodshare/domain';
import { Type } from 'typebox';
import { sendFormExpiredPage } from '../../pages/error.page.ts';
import { formTokenMatches } from '../../pages/form-token.ts';
import { pickLocale } from '../../pages/locale.ts';
import { CONNECTED_APPS_PATH, LOGIN_PATH } from '../../pages/page-paths.ts';
import type { RememberedConsent } from '../../stores/consents.store.ts';
import { sendConnectedAppsPage } from './connected-apps.page.ts';

// The client id grammar of the client registry (oauth-clients.service.ts).
const RevokeParamsSchema = Type.Object({
  clientId: Type.String({ pattern: '^[A-Za-z0-9._~-]{1,100}$' }),
});

const RevokeFormSchema = Type.Object({ csrf: Type.Optional(Type.String({ maxLength: 64 })) });

/** A text[] literal, every element quoted, so no value can end the list early. */
function postgresTextArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** Names of the clients, deactivated ones included: the user still recognises them. */
async function withClientNames(em: EntityManager, consents: RememberedConsent[]) {
  if (consents.length === 0) return [];
  const rows = await em.execute<{ client_id: string; name: string }[]>(
    'select client_id, name from oauth_clients where client_id = any(?::text[])',
    [postgresTextArray(consents.map((consent) => consent.clientId))],
  );
  const names = new Map(rows.map((row) => [row.client_id, row.name]));
  return consents.map((consent) => ({
    clientId: consent.clientId,
    name: names.get(consent.clientId) ?? consent.clientId,
    scopes: consent.scopes,
    grantedAt: new Date(consent.grantedAt),
  }));
}

/**
 * "Connected apps" (docs/oauth.md §6.2): the user's remembered consents,
 * each revocable; revoking forgets the consent and kills the grant's tokens.
 */
export const connectedAppsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(CONNECTED_APPS_PATH, async (request, reply) => {
    const { session } = request;
    // The login page leads here when it has no authorization request to continue.
    if (!session) return reply.redirect(LOGIN_PATH, 302);
    const consents = await app.consents.list(session.userId);
    return sendConnectedAppsPage(reply, {
      locale: pickLocale(request.headers['accept-language']),
      token: session.csrfToken,
      apps: await withClientNames(request.em, consents),
    });
  });

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
      const { clientId } = request.params;
      // The grant's tokens die with the consent (docs/oauth.md §6.2). Tokens first: should the
      // second step fail, the app is still listed and the user can try again.
      await app.tokenState.revokeGrant(session.userId, clientId);
      const hadConsent = await app.consents.revoke(session.userId, clientId);
      app.oauth.audit(request, 'consent_revoked', {
        userId: session.userId,
        clientId,
        hadConsent,
      });
      return reply.redirect(CONNECTED_APPS_PATH, 303);
    },
  );
};

import type { AuthServices } from '../../auth-services.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UserEntity } from '@foodshare/domain';
import { Type } from 'typebox';
import { clientPresentation } from '../../clients/registered-clients.ts';
import { advance, clientOfPending, decide } from '../../authorization/authorization-flow.ts';
import { authorizationContext, sendOutcome } from '../../authorization/authorization-responses.ts';
import {
  sendExpiredRequestPage,
  sendFormExpiredPage,
  sendInvalidRedirectPage,
} from '../../pages/error.page.ts';
import { formTokenMatches } from '../../pages/form-token.ts';
import { pickLocale } from '../../pages/locale.ts';
import { CONSENT_PATH, loginPageUrl } from '../../pages/page-paths.ts';
import { sendConsentPage } from './consent.page.ts';

const RequestIdSchema = Type.String({ maxLength: 64 });

const ConsentQuerySchema = Type.Object({ request: RequestIdSchema });

const ConsentFormSchema = Type.Object({
  request: RequestIdSchema,
  decision: Type.Union([Type.Literal('allow'), Type.Literal('deny')]),
  remember: Type.Optional(Type.String({ maxLength: 10 })),
  csrf: Type.Optional(Type.String({ maxLength: 64 })),
});

/**
 * The consent screen of a parked authorization request and the user's answer to it. Both run
 * the request's checks again (login, region gate), so nothing decided on an earlier page is
 * taken on trust.
 */
export const consentRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (app, services) => {
  app.get(
    CONSENT_PATH,
    { schema: { tags: ['interaction'], querystring: ConsentQuerySchema } },
    async (request, reply) => {
      const locale = pickLocale(request.headers['accept-language']);
      const pending = await services.authorizationRequests.find(request.query.request);
      if (!pending) return sendExpiredRequestPage(reply, locale);
      const client = await clientOfPending(request.em, pending);
      if (!client) return sendInvalidRedirectPage(reply, locale, services.metrics);
      const { session } = request;
      const outcome = await advance(
        authorizationContext(services, request),
        client,
        pending,
        session,
      );
      if (outcome.kind !== 'consent' || !session) {
        return sendOutcome(services, reply, outcome, { target: pending, afterPost: false, locale });
      }
      const user = await request.em.findOne(
        UserEntity,
        { id: session.userId },
        { fields: ['firstName', 'lastName', 'email'] },
      );
      // Removed since the session began: whoever is at the browser signs in again.
      if (!user) return reply.redirect(loginPageUrl(pending.id), 302);
      return sendConsentPage(reply, {
        locale,
        token: session.csrfToken,
        requestId: pending.id,
        client: { name: client.name, ...(await clientPresentation(request.em, client.clientId)) },
        user: { name: `${user.firstName} ${user.lastName}`.trim(), email: user.email },
        redirectUri: pending.deviceId === undefined ? pending.redirectUri : null,
        scopes: pending.scopes,
      });
    },
  );

  app.post(
    CONSENT_PATH,
    {
      // A form cannot send the X-CSRF-Token header; the field is checked below instead.
      config: { csrf: false },
      schema: { tags: ['interaction'], body: ConsentFormSchema },
    },
    async (request, reply) => {
      const locale = pickLocale(request.headers['accept-language']);
      const pending = await services.authorizationRequests.find(request.body.request);
      if (!pending) return sendExpiredRequestPage(reply, locale);
      const client = await clientOfPending(request.em, pending);
      if (!client) return sendInvalidRedirectPage(reply, locale, services.metrics);
      const { session } = request;
      if (!session) return reply.redirect(loginPageUrl(pending.id), 303);
      if (!formTokenMatches(session.csrfToken, request.body.csrf)) {
        return sendFormExpiredPage(reply, locale);
      }
      const outcome = await decide(
        authorizationContext(services, request),
        client,
        pending,
        session,
        {
          allow: request.body.decision === 'allow',
          remember: request.body.remember !== undefined,
        },
      );
      return sendOutcome(services, reply, outcome, { target: pending, afterPost: true, locale });
    },
  );
};

import type { AuthServices } from '../../auth-services.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findActiveClient } from '../../clients/registered-clients.ts';
import { OAuthError } from '../../errors/oauth-errors.ts';
import { limitInteractionsPerAddress } from '../../authorization/interaction-rate-limit.ts';
import { sendExpiredRequestPage, sendInvalidRedirectPage } from '../../pages/error.page.ts';
import { pickLocale } from '../../pages/locale.ts';
import {
  AuthorizationParamsSchema,
  readParams,
  type AuthorizationParams,
} from '../../authorization/authorization-params.ts';
import { advance } from '../../authorization/authorization-flow.ts';
import { authorizationContext, sendOutcome } from '../../authorization/authorization-responses.ts';
import {
  redirectTarget,
  validateAuthorizationRequest,
} from '../../authorization/validate-authorization-request.ts';
import { pushedParams } from './pushed-request.ts';

/**
 * The authorization endpoint (RFC 6749 4.1.1, OIDC Core 3.1.2), by GET and by form POST, with
 * its parameters or with the request_uri of a pushed request (RFC 9126): a bad client,
 * redirect URI or request_uri gets an error page, every other problem an error redirect, and
 * a valid request goes on to login, region gate, consent and a code.
 */
export const authorizeRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (app, services) => {
  async function authorize(
    request: FastifyRequest,
    reply: FastifyReply,
    raw: AuthorizationParams,
    afterPost: boolean,
  ) {
    const locale = pickLocale(request.headers['accept-language']);
    const pushed = await pushedParams(services, raw);
    if (pushed === 'invalid') {
      services.metrics.oauthError('invalid_request');
      return sendExpiredRequestPage(reply, locale);
    }
    const params = readParams(pushed ?? raw);
    const client =
      params.clientId === undefined ? null : await findActiveClient(request.em, params.clientId);
    const redirectUri = redirectTarget(client, params);
    if (!client || redirectUri === null)
      return sendInvalidRedirectPage(reply, locale, services.metrics);

    const target = { redirectUri, state: params.state ?? null };
    const options = { target, afterPost, locale };
    let authorization;
    try {
      authorization = validateAuthorizationRequest(client, redirectUri, params, {
        pushed: pushed !== null,
      });
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      return sendOutcome(services, reply, { kind: 'error', error }, options);
    }
    const context = authorizationContext(services, request);
    const outcome = await advance(context, client, authorization, request.session);
    return sendOutcome(services, reply, outcome, options);
  }

  app.get(
    '/oauth/authorize',
    {
      onRequest: limitInteractionsPerAddress(services),
      schema: { tags: ['oauth'], querystring: AuthorizationParamsSchema },
    },
    (request, reply) => authorize(request, reply, request.query, false),
  );

  app.post(
    '/oauth/authorize',
    {
      // The same request as the GET, only form-posted by the client's page (OIDC Core 3.1.2.1):
      // it changes nothing a GET could not, and a client's page cannot know our CSRF token.
      config: { csrf: false },
      onRequest: limitInteractionsPerAddress(services),
      schema: { tags: ['oauth'], body: AuthorizationParamsSchema },
    },
    (request, reply) => authorize(request, reply, request.body, true),
  );
};

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
  redirectTarget,
  singleParam,
  validateAuthorizationRequest,
  type AuthorizationParams,
} from '../../authorization/authorization-request.ts';
import { advance } from '../../authorization/authorization-flow.ts';
import { authorizationContext, sendOutcome } from '../../authorization/authorization-responses.ts';

/**
 * The authorization endpoint (RFC 6749 4.1.1, OIDC Core 3.1.2), by GET and by form POST. It
 * takes its parameters, or the request_uri of a pushed request (RFC 9126). A bad client,
 * redirect URI or request_uri gets an error page; every other problem gets an error redirect.
 * A valid request goes on to login, region gate, consent and a code.
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

/**
 * RFC 9126 4: an authorization request naming a request_uri of /oauth/par stands for the pushed
 * parameters, and only those (docs/oauth.md §8.2). Null when the request names none; 'invalid'
 * when it names one that is unknown, expired, used already, or pushed by another client than
 * the request's client_id: nothing in the request can then be trusted to redirect to.
 */
async function pushedParams(
  services: AuthServices,
  raw: AuthorizationParams,
): Promise<AuthorizationParams | null | 'invalid'> {
  const requestUri = singleParam(raw, 'request_uri');
  if (requestUri === undefined || requestUri === '') return null;
  if (typeof requestUri !== 'string') return 'invalid';
  // Taken before the client is compared: a request_uri presented with the wrong client_id is
  // burnt rather than left for more guesses.
  const pushed = await services.pushedRequests.take(requestUri);
  if (!pushed || pushed.clientId !== singleParam(raw, 'client_id')) return 'invalid';
  return pushed.params;
}

import type { AuthServices } from '../../auth-services.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AuthorizationParamsSchema,
  PARAM_MAX_LENGTHS,
  readParams,
  singleParam,
  type AuthorizationParams,
} from '../../authorization/authorization-request.ts';
import { acceptDpopFromAnyOrigin, allowAnyOrigin } from '../../clients/allow-any-origin.ts';
import { authenticateClientWithinLimits } from '../../clients/client-authentication.ts';
import {
  assertFormEncoded,
  clientEndpointErrorResponses,
  tokenBudget,
  invalidForm,
  NO_STORE,
} from '../../clients/client-endpoint.ts';
import { answerOAuthError, oauthRouteErrorHandler } from '../../errors/error-boundary.ts';
import { invalidRequest } from '../../errors/oauth-errors.ts';
import {
  redirectTarget,
  validateAuthorizationRequest,
} from '../../authorization/authorization-request.ts';

export const PAR_PATH = '/oauth/par';

const PushedResponseSchema = Type.Object({
  request_uri: Type.String(),
  expires_in: Type.Integer(),
});

/**
 * What is kept of a pushed request: the authorization parameters this server reads, one value
 * each. Client credentials are not (a secret must not sit in the store), nor unknown parameters,
 * which the authorization endpoint would ignore anyway.
 */
function parametersToKeep(params: AuthorizationParams, clientId: string): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of Object.keys(PARAM_MAX_LENGTHS)) {
    const value = singleParam(params, name);
    if (typeof value === 'string') kept[name] = value;
  }
  return { ...kept, client_id: clientId };
}

/**
 * Pushed Authorization Requests (RFC 9126, docs/oauth.md §8): the client sends its authorization
 * request here, authenticated as at the token endpoint, and gets a request_uri to send the
 * browser to /oauth/authorize with. The request is validated here exactly as the authorization
 * endpoint would, and again when it is used.
 */
export const parRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (app, services) => {
  // A browser app (a public client) pushes from its own origin, as it redeems its codes; no
  // cookie or session is involved, so any origin may read the answers.
  allowAnyOrigin(app);
  acceptDpopFromAnyOrigin(app, PAR_PATH);
  app.post(
    PAR_PATH,
    {
      // Clients authenticate themselves; a browser session plays no part here.
      config: { csrf: false },
      attachValidation: true,
      errorHandler: oauthRouteErrorHandler(services.metrics),
      schema: {
        tags: ['oauth'],
        summary: 'Pushed Authorization Requests (RFC 9126)',
        consumes: ['application/x-www-form-urlencoded'],
        body: AuthorizationParamsSchema,
        response: { 201: PushedResponseSchema, ...clientEndpointErrorResponses },
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      try {
        assertFormEncoded(request);
        if (request.validationError) throw invalidForm(request.validationError);
        const body = request.body;
        const credential = (name: string) => {
          const value = singleParam(body, name);
          if (typeof value === 'object') throw invalidRequest(`${name} must be sent once`);
          return value;
        };
        // RFC 9449 10.1: a proof here binds the code, as dpop_jkt does.
        const proof = await services.dpop.check(request.headers.dpop, {
          method: 'POST',
          url: `${services.issuer}${PAR_PATH}`,
          requireNonce: false,
        });
        // RFC 9126 2.1: client authentication as at the token endpoint, under the same count of
        // failures and the same per-client budget (a budget of its own).
        const client = await authenticateClientWithinLimits(
          services,
          request,
          {
            authorization: request.headers.authorization,
            clientId: credential('client_id'),
            clientSecret: credential('client_secret'),
          },
          { budget: (authenticated) => tokenBudget(services, request, authenticated, 'par') },
        );
        // RFC 9126 2.1: a pushed request cannot itself point at another.
        if (body.request_uri !== undefined) {
          throw invalidRequest('request_uri must not be sent to the pushed authorization endpoint');
        }
        if (proof !== null) {
          if (body.dpop_jkt !== undefined && body.dpop_jkt !== proof.jkt) {
            throw invalidRequest('dpop_jkt does not match the key of the DPoP proof');
          }
          await services.dpop.consume(proof);
        }
        const bound = proof === null ? body : { ...body, dpop_jkt: proof.jkt };
        const params = readParams({ ...bound, client_id: client.clientId });
        // No redirect here: the answer goes to the client, which learns what was wrong.
        const redirectUri = redirectTarget(client, params);
        if (redirectUri === null) throw invalidRequest('Invalid redirect_uri');
        validateAuthorizationRequest(client, redirectUri, params, { pushed: true });
        const { requestUri, expiresIn } = await services.pushedRequests.push({
          clientId: client.clientId,
          params: parametersToKeep(bound, client.clientId),
        });
        return await reply.code(201).send({ request_uri: requestUri, expires_in: expiresIn });
      } catch (error) {
        return answerOAuthError(reply, error, services.metrics);
      }
    },
  );
};

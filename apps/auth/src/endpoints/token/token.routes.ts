import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  invalidRequest,
  unauthorizedClient,
  unsupportedGrantType,
} from '../../errors/oauth-errors.ts';
import { allowAnyOrigin } from '../../clients/allow-any-origin.ts';
import { answerOAuthError, oauthRouteErrorHandler } from '../../errors/error-boundary.ts';
import { clientEndpointErrorResponses, NO_STORE } from '../../clients/client-endpoint.ts';
import { assertFormEncoded, invalidForm } from '../../clients/client-endpoint.ts';
import {
  authenticateClientWithinLimits,
  enforceTokenRateLimit,
} from '../../clients/client-rate-limits.ts';
import { authorizationCodeGrant } from './grants/authorization-code.ts';
import { arrivedAtMs, type Grant, type TokenServices } from './grants/grant.ts';
import { refreshTokenGrant } from './grants/refresh-token.ts';
import { TokenRequestSchema, TokenResponseSchema } from './token.schemas.ts';

const GRANTS: ReadonlyMap<string, Grant> = new Map(
  [authorizationCodeGrant, refreshTokenGrant].map((grant) => [grant.grantType, grant]),
);

export const tokenRoutes: FastifyPluginAsyncTypebox<TokenServices> = async (app, services) => {
  // Browser apps are public clients (docs/spec.md §2.14) and redeem their codes from their own
  // origin. No cookie or session is involved here, so any origin may read the answers.
  allowAnyOrigin(app);
  app.post(
    '/oauth/token',
    {
      // Clients authenticate themselves; a browser session plays no part here.
      config: { csrf: false },
      attachValidation: true,
      errorHandler: oauthRouteErrorHandler(services.metrics),
      schema: {
        tags: ['oauth'],
        summary: 'Token endpoint (RFC 6749 3.2): authorization_code with PKCE, refresh_token',
        consumes: ['application/x-www-form-urlencoded'],
        body: TokenRequestSchema,
        response: { 200: TokenResponseSchema, ...clientEndpointErrorResponses },
      },
    },
    async (request, reply) => {
      const requestStartedAt = arrivedAtMs(Date.now(), reply.elapsedTime);
      void reply.headers(NO_STORE);
      try {
        assertFormEncoded(request);
        if (request.validationError) throw invalidForm(request.validationError);
        const params = request.body;
        if (!params.grant_type) throw invalidRequest('grant_type is required');
        const grant = GRANTS.get(params.grant_type);
        if (!grant) throw unsupportedGrantType(`Unsupported grant_type ${params.grant_type}`);
        // The client's token budget is spent in the round trip that ends its secret check.
        const client = await authenticateClientWithinLimits(
          services,
          request,
          {
            authorization: request.headers.authorization,
            clientId: params.client_id,
            clientSecret: params.client_secret,
          },
          (authenticated) => enforceTokenRateLimit(services, request, authenticated),
        );
        if (!client.grantTypes.includes(grant.grantType)) {
          throw unauthorizedClient(`The client may not use the ${grant.grantType} grant`);
        }
        const tokens = await grant.handle(services, { request, client, params, requestStartedAt });
        services.metrics.tokensIssued(grant.grantType, client.clientId);
        return tokens;
      } catch (error) {
        return answerOAuthError(reply, error, services.metrics);
      }
    },
  );
};

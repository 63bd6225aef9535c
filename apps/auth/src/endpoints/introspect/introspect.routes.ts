import type { AuthServices } from '../../auth-services.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invalidClient, invalidRequest } from '../../errors/oauth-errors.ts';
import { answerOAuthError, oauthRouteErrorHandler } from '../../errors/error-boundary.ts';
import {
  authenticateClientForm,
  clientEndpointErrorResponses,
  enforceIntrospectionRateLimit,
  NO_STORE,
} from '../../clients/client-endpoint.ts';
import { introspectToken } from './introspect-token.ts';
import {
  IntrospectionRequestSchema,
  IntrospectionResponseSchema,
} from './introspection.schemas.ts';

export const introspectRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (app, services) => {
  // No CORS: the callers are resource servers (confidential clients, whose secret never reaches
  // a browser), and the answer describes a user's grant.
  app.post(
    '/oauth/introspect',
    {
      // Clients authenticate themselves; a browser session plays no part here.
      config: { csrf: false },
      attachValidation: true,
      errorHandler: oauthRouteErrorHandler(services.metrics),
      schema: {
        tags: ['oauth'],
        summary: 'Token introspection (RFC 7662), for confidential clients',
        consumes: ['application/x-www-form-urlencoded'],
        body: IntrospectionRequestSchema,
        response: { 200: IntrospectionResponseSchema, ...clientEndpointErrorResponses },
      },
    },
    async (request, reply) => {
      // The answer describes a token at this moment; a cached one would outlive a revocation.
      void reply.headers(NO_STORE);
      try {
        // RFC 7662 2.1: the caller authenticates, as at the token endpoint.
        const { client, token } = await authenticateClientForm(services, request);
        // A public client proves nothing by its id: anyone could ask in its name, and
        // introspection would become an oracle for stolen tokens (RFC 7662 4).
        if (!client.confidential) {
          throw invalidClient(
            'Introspection is for confidential clients',
            client.authenticatedBy === 'client_secret_basic',
          );
        }
        await enforceIntrospectionRateLimit(services, client);
        if (!token) throw invalidRequest('token is required');
        return await introspectToken(services, request, token, client.clientId);
      } catch (error) {
        return answerOAuthError(reply, error, services.metrics);
      }
    },
  );
};

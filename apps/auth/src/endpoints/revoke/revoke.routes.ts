import type { AuthServices } from '../../auth-services.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { invalidRequest } from '../../errors/oauth-errors.ts';
import { allowAnyOrigin } from '../../clients/allow-any-origin.ts';
import { answerOAuthError, oauthRouteErrorHandler } from '../../errors/error-boundary.ts';
import { authenticateClientForm } from '../../clients/client-endpoint.ts';
import { clientEndpointErrorResponses, NO_STORE } from '../../clients/client-endpoint.ts';
import { revokeToken } from './revoke-token.ts';

const RevocationRequestSchema = Type.Object(
  {
    token: Type.Optional(Type.String()),
    token_type_hint: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Optional(Type.String()),
  },
  { title: 'RevocationRequest' },
);

export const revokeRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (app, services) => {
  // Browser apps are public clients (docs/spec.md §2.14) and redeem their codes from their own
  // origin. No cookie or session is involved here, so any origin may read the answers.
  allowAnyOrigin(app);
  app.post(
    '/oauth/revoke',
    {
      config: { csrf: false },
      attachValidation: true,
      errorHandler: oauthRouteErrorHandler(services.metrics),
      schema: {
        tags: ['oauth'],
        summary: 'Token revocation (RFC 7009)',
        consumes: ['application/x-www-form-urlencoded'],
        body: RevocationRequestSchema,
        response: {
          200: Type.Null({ description: 'Revoked, or nothing to revoke; the body is empty' }),
          ...clientEndpointErrorResponses,
        },
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      try {
        // RFC 7009 2.1: the client authenticates as at the token endpoint.
        const { client, token } = await authenticateClientForm(services, request);
        if (!token) throw invalidRequest('token is required');
        await revokeToken(services, request, client, token);
        // RFC 7009 2.2: 200 whether or not there was anything to revoke.
        // An empty body (the schema's null is never serialized for an absent payload).
        return reply.code(200).send(undefined as unknown as null);
      } catch (error) {
        return answerOAuthError(reply, error, services.metrics);
      }
    },
  );
};

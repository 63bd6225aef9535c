import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEVICE_CODE_GRANT_TYPE } from '@foodshare/domain';
import { Type } from 'typebox';
import type { AuthServices } from '../../auth-services.ts';
import { checkScopes } from '../../authorization/authorization-request.ts';
import { allowAnyOrigin } from '../../clients/allow-any-origin.ts';
import { authenticateClientWithinLimits } from '../../clients/client-authentication.ts';
import {
  assertFormEncoded,
  clientEndpointErrorResponses,
  invalidForm,
  NO_STORE,
  tokenBudget,
} from '../../clients/client-endpoint.ts';
import { answerOAuthError, oauthRouteErrorHandler } from '../../errors/error-boundary.ts';
import { unauthorizedClient } from '../../errors/oauth-errors.ts';
import { DEVICE_PATH } from '../../pages/page-paths.ts';
import { formatUserCode } from '../../stores/device-authorizations.store.ts';

export const DEVICE_AUTHORIZATION_PATH = '/oauth/device_authorization';

/** The form fields this endpoint reads (RFC 8628 3.1); a field sent twice fails the schema. */
const DeviceAuthorizationRequestSchema = Type.Object(
  {
    scope: Type.Optional(Type.String({ maxLength: 2000 })),
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Optional(Type.String()),
  },
  { title: 'DeviceAuthorizationRequest' },
);

/** RFC 8628 3.2. */
const DeviceAuthorizationResponseSchema = Type.Object(
  {
    device_code: Type.String(),
    user_code: Type.String({ description: 'XXXX-XXXX, from BCDFGHJKLMNPQRSTVWXZ' }),
    verification_uri: Type.String(),
    verification_uri_complete: Type.String(),
    expires_in: Type.Integer({ minimum: 1 }),
    interval: Type.Integer({ minimum: 1 }),
  },
  { title: 'DeviceAuthorizationResponse' },
);

/**
 * The device authorization endpoint (RFC 8628 3.1, docs/oauth.md §12): a client registered for
 * the device grant authenticates as at the token endpoint (within the same budget) and gets a
 * device code to poll with and a user code for the person to enter at the verification page.
 */
export const deviceAuthorizationRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (
  app,
  services,
) => {
  // A public client (a TV app, a kiosk's browser) may ask from any origin; no cookie is involved.
  allowAnyOrigin(app);
  app.post(
    DEVICE_AUTHORIZATION_PATH,
    {
      config: { csrf: false },
      attachValidation: true,
      errorHandler: oauthRouteErrorHandler(services.metrics),
      schema: {
        tags: ['oauth'],
        summary: 'Device authorization endpoint (RFC 8628 3.1)',
        consumes: ['application/x-www-form-urlencoded'],
        body: DeviceAuthorizationRequestSchema,
        response: { 200: DeviceAuthorizationResponseSchema, ...clientEndpointErrorResponses },
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      try {
        assertFormEncoded(request);
        if (request.validationError) throw invalidForm(request.validationError);
        const client = await authenticateClientWithinLimits(
          services,
          request,
          {
            authorization: request.headers.authorization,
            clientId: request.body.client_id,
            clientSecret: request.body.client_secret,
          },
          { budget: (authenticated) => tokenBudget(services, request, authenticated) },
        );
        if (!client.grantTypes.includes(DEVICE_CODE_GRANT_TYPE)) {
          throw unauthorizedClient('The client may not use the device authorization grant');
        }
        // The scopes as an authorization request would have them (openid required).
        const scopes = checkScopes(client, request.body.scope);
        const { deviceCode, userCode } = await services.devices.issue({
          clientId: client.clientId,
          scopes,
        });
        const verificationUri = `${services.issuer}${DEVICE_PATH}`;
        const shown = formatUserCode(userCode);
        return {
          device_code: deviceCode,
          user_code: shown,
          verification_uri: verificationUri,
          verification_uri_complete: `${verificationUri}?${new URLSearchParams({ user_code: shown }).toString()}`,
          expires_in: services.config.DEVICE_CODE_TTL_SECONDS,
          interval: services.config.DEVICE_CODE_INTERVAL_SECONDS,
        };
      } catch (error) {
        return answerOAuthError(reply, error, services.metrics);
      }
    },
  );
};

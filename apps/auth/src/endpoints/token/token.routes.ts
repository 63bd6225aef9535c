import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  invalidRequest,
  unauthorizedClient,
  unsupportedGrantType,
} from '../../errors/oauth-errors.ts';
import { acceptDpopFromAnyOrigin, allowAnyOrigin } from '../../clients/allow-any-origin.ts';
import { answerOAuthError, oauthRouteErrorHandler } from '../../errors/error-boundary.ts';
import { authenticateClientWithinLimits } from '../../clients/client-authentication.ts';
import {
  assertFormEncoded,
  clientEndpointErrorResponses,
  invalidForm,
  NO_STORE,
  tokenBudget,
} from '../../clients/client-endpoint.ts';
import { authorizationCodeGrant } from './grants/authorization-code.ts';
import type { Grant, TokenRequestParams, TokenServices } from './grants/grant.ts';
import { deviceCodeGrant } from './grants/device-code.ts';
import { refreshTokenGrant } from './grants/refresh-token.ts';
import { TokenRequestSchema, TokenResponseSchema } from './token.schemas.ts';

const GRANTS: ReadonlyMap<string, Grant> = new Map(
  [authorizationCodeGrant, refreshTokenGrant, deviceCodeGrant].map((grant) => [
    grant.grantType,
    grant,
  ]),
);

/** The first parameter its grant requires that the request lacks (empty counts as missing). */
function missingParam(params: TokenRequestParams, grant: Grant): string | undefined {
  return grant.requiredParams.find((name) => params[name] === undefined || params[name] === '');
}

/** Refuses a request without a parameter its grant requires. */
function assertRequiredParams(
  params: TokenRequestParams,
  grant: Grant,
): asserts params is Required<TokenRequestParams> {
  const missing = missingParam(params, grant);
  if (missing !== undefined) throw invalidRequest(`${missing} is required`);
}

/**
 * When a request arrived, in whole epoch milliseconds, from the wall clock now and the time it
 * has been under way (Fastify's `reply.elapsedTime`, fractional). Compared with a rotation's
 * `rotatedAt` (a whole `Date.now()`): rounded up, so that a rotation completed before the request
 * arrived is never dated after it. Rounded down or left fractional, a reuse arriving in the same
 * millisecond as the rotation's end could look concurrent and escape the family's revocation.
 */
export function arrivedAtMs(nowMs: number, elapsedMs: number): number {
  return Math.ceil(nowMs - elapsedMs);
}

export const tokenRoutes: FastifyPluginAsyncTypebox<TokenServices> = async (app, services) => {
  // Browser apps are public clients (docs/spec.md §2.14) and redeem their codes from their own
  // origin. No cookie or session is involved here, so any origin may read the answers.
  allowAnyOrigin(app);
  acceptDpopFromAnyOrigin(app, '/oauth/token');
  app.post(
    '/oauth/token',
    {
      // Clients authenticate themselves; a browser session plays no part here.
      config: { csrf: false },
      attachValidation: true,
      errorHandler: oauthRouteErrorHandler(services.metrics),
      schema: {
        tags: ['oauth'],
        summary:
          'Token endpoint (RFC 6749 3.2): authorization_code with PKCE, refresh_token, device_code (RFC 8628)',
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
        // RFC 9449 5: a proof binds the tokens of this response to its key. It is checked here,
        // and used up once the client authenticated and spent its budget.
        const proof = await services.dpop.check(request.headers.dpop, {
          method: 'POST',
          url: `${services.issuer}/oauth/token`,
          requireNonce: true,
        });
        // One round trip ends the client's authentication: its failure guard, its token budget
        // and the grant's first reads.
        let ahead: Promise<unknown> | null = null;
        const client = await authenticateClientWithinLimits(
          services,
          request,
          {
            authorization: request.headers.authorization,
            clientId: params.client_id,
            clientSecret: params.client_secret,
          },
          {
            budget: (authenticated) =>
              tokenBudget(services, request, authenticated, grant.budget ?? 'token'),
            alongside: (authenticated) => {
              if (!grant.readAhead || missingParam(params, grant) !== undefined) return;
              ahead = grant.readAhead(
                services,
                params as Required<TokenRequestParams>,
                authenticated.clientId,
              );
              // Awaited by the grant; a request refused before must not leave it unhandled.
              ahead.catch(() => undefined);
            },
          },
        );
        if (!client.grantTypes.includes(grant.grantType)) {
          throw unauthorizedClient(`The client may not use the ${grant.grantType} grant`);
        }
        if (proof !== null) await services.dpop.consume(proof);
        const dpopJkt = proof?.jkt ?? null;
        if (client.requireDpop && dpopJkt === null) {
          throw invalidRequest('This client must send a DPoP proof (RFC 9449)');
        }
        assertRequiredParams(params, grant);
        const tokens = await grant.handle(services, {
          request,
          client,
          params,
          requestStartedAt,
          dpopJkt,
          ahead,
        });
        services.metrics.tokensIssued(grant.grantType, client.clientId);
        // RFC 9449 8.2: the nonce for the client's next proof.
        if (dpopJkt !== null) void reply.header('dpop-nonce', services.dpop.nonce());
        return tokens;
      } catch (error) {
        return answerOAuthError(reply, error, services.metrics);
      }
    },
  );
};

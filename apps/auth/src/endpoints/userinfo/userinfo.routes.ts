import type { AuthServices } from '../../auth-services.ts';
import { UserinfoSchema } from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { loadUserClaims } from '../../claims/user-claims.ts';
import {
  insufficientScope,
  invalidToken,
  OAuthErrorBodySchema,
} from '../../errors/oauth-errors.ts';
import { answerOAuthError, oauthRouteErrorHandler } from '../../errors/error-boundary.ts';
import {
  assertAccessTokenLive,
  assertProofOfPossession,
  presentedAccessToken,
  verifySignedAccessToken,
} from '../../tokens/access-token.ts';

// docs/oauth.md §5.3: userinfo is called from browser clients of any origin. No cookies are
// involved (the token travels in a header), so `*` is safe; the challenge header must be readable.
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'WWW-Authenticate, DPoP-Nonce',
};

const schema = {
  tags: ['oauth'],
  summary: 'OpenID Connect userinfo (OIDC Core 5.3): the claims of the granted scopes',
  response: {
    200: UserinfoSchema,
    400: OAuthErrorBodySchema,
    401: OAuthErrorBodySchema,
    403: OAuthErrorBodySchema,
  },
};

export const userinfoRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (app, services) => {
  // On every answer of this scope, errors included, so a browser client can read the 401.
  // A callback hook: an async one costs a promise and a microtask turn on every answer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    void reply.headers(CORS);
    done(null, payload);
  });

  const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
    try {
      const presented = presentedAccessToken(request.headers.authorization);
      const grant = await verifySignedAccessToken(services, presented.token);
      await assertProofOfPossession(services, presented, grant, {
        method: request.method,
        url: `${services.issuer}/oauth/userinfo`,
        proof: request.headers.dpop,
      });
      const openid = grant.scopes.includes('openid');
      // The claims are read while the deny list is (two round trips at once), and answered only
      // once the token proved live: a revoked token learns nothing, whatever the read found.
      const claims = openid
        ? loadUserClaims(request.em, grant.userId, grant.scopes, services.issuer)
        : null;
      // Awaited below; until then a failure must not count as unhandled.
      claims?.catch(() => undefined);
      await assertAccessTokenLive(services, grant);
      // OIDC Core 5.3: userinfo answers for tokens of an OpenID Connect request only.
      if (!openid || !claims) throw insufficientScope('The openid scope is required');
      const found = await claims;
      if (!found) throw invalidToken('The user of this token is not active');
      return found;
    } catch (error) {
      return answerOAuthError(reply, error, services.metrics);
    }
  };

  app.get('/oauth/userinfo', { schema }, userinfo);
  app.post(
    '/oauth/userinfo',
    // The bearer token authenticates the request; a session cookie plays no part.
    { config: { csrf: false }, errorHandler: oauthRouteErrorHandler(services.metrics), schema },
    userinfo,
  );
  // The Authorization header makes a cross-origin call "non-simple": browsers ask first.
  app.options(
    '/oauth/userinfo',
    { schema: { tags: ['oauth'], response: { 204: Type.Null() } } },
    async (_request, reply) =>
      reply
        .code(204)
        .headers({
          'access-control-allow-methods': 'GET, POST',
          'access-control-allow-headers': 'Authorization, Content-Type, DPoP',
          'access-control-max-age': '600',
        })
        .send(null),
  );
};

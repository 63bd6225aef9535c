import type { AuthServices } from '../../auth-services.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { allowAnyOrigin } from '../../clients/allow-any-origin.ts';

/** RFC 7517 5 with RSA public members only (RFC 7518 6.3.1): no private member can slip out. */
const JwksSchema = Type.Object(
  {
    keys: Type.Array(
      Type.Object(
        {
          kid: Type.String(),
          kty: Type.Literal('RSA'),
          use: Type.Literal('sig'),
          alg: Type.Literal('RS256'),
          n: Type.String(),
          e: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

// Short, so that verifiers see a next key well before it signs (`keys rotate` delays activation
// by an hour by default); verifiers also re-fetch when they meet an unknown kid.
const CACHE_CONTROL = 'public, max-age=60';

export const jwksRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (app, services) => {
  allowAnyOrigin(app);
  app.get(
    '/.well-known/jwks.json',
    { schema: { tags: ['discovery'], response: { 200: JwksSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', CACHE_CONTROL);
      return services.keys.publicJwks();
    },
  );
};

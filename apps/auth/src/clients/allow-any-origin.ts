import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

/**
 * Lets pages of any origin read this scope's answers. For what browser-based clients call from
 * their own origin without cookies: discovery and the JWKS (docs/oauth.md §5.3), and the token
 * revocation and pushed authorization request endpoints of public clients. Simple requests without credentials need no
 * preflight, so one header on the scope's responses is all it takes.
 */
export function allowAnyOrigin(app: FastifyInstance): void {
  // A callback hook: an async one costs a promise and a microtask turn on every answer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('access-control-allow-origin', '*');
    done(null, payload);
  });
}

/**
 * RFC 9449 for browser apps: a `DPoP` header makes a POST "non-simple", so browsers ask first,
 * and they must be let to read the nonce of a `use_dpop_nonce` answer.
 */
export function acceptDpopFromAnyOrigin(app: FastifyInstance, path: string): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('access-control-expose-headers', 'DPoP-Nonce');
    done(null, payload);
  });
  app.options(
    path,
    { schema: { tags: ['oauth'], response: { 204: Type.Null() } } },
    async (_request, reply) =>
      reply
        .code(204)
        .headers({
          'access-control-allow-methods': 'POST',
          'access-control-allow-headers': 'Authorization, Content-Type, DPoP',
          'access-control-max-age': '600',
        })
        .send(null),
  );
}

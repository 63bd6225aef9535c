import type { FastifyInstance } from 'fastify';

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

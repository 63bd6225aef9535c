import type { FastifyInstance } from 'fastify';

/**
 * Lets pages of any origin read this scope's answers. For what browser-based clients call from
 * their own origin without cookies: discovery and the JWKS (docs/oauth.md §5.3), and the token
 * revocation and pushed authorization request endpoints of public clients. Simple requests without credentials need no
 * preflight, so one header on the scope's responses is all it takes.
 */
export function allowAnyOrigin(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*');
  });
}

import type { FastifyInstance } from 'fastify';

/**
 * Discovery and the JWKS are public documents that browser-based clients fetch from other
 * origins (docs/oauth.md §5.3: CORS for userinfo, discovery and JWKS). Simple GETs without
 * credentials need no preflight, so one header on this scope's responses is all it takes.
 */
export function allowAnyOrigin(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*');
  });
}

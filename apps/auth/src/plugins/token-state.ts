import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Refresh-token families, the access-token deny list and grant revocation (owner: token
 * endpoint). Decorates the app with what the other endpoints and pages need to revoke tokens.
 */
export const tokenStatePlugin = fp(async (_app: FastifyInstance) => {}, {
  name: 'foodshare-token-state',
  dependencies: ['foodshare-oauth-core'],
});

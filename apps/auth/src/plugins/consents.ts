import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Remembered consent per user and client (owner: authorize endpoint and consent pages). */
export const consentsPlugin = fp(async (_app: FastifyInstance) => {}, {
  name: 'foodshare-consents',
  dependencies: ['foodshare-oauth-core'],
});

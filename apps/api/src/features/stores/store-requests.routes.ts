import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const storeRequestsRoutes: FastifyPluginAsyncTypebox = async () => {};

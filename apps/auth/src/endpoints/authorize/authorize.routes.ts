import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const authorizeRoutes: FastifyPluginAsyncTypebox = async () => {};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const storeLogRoutes: FastifyPluginAsyncTypebox = async () => {};

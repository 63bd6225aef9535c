import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const searchRoutes: FastifyPluginAsyncTypebox = async () => {};

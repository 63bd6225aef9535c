import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const resourcesRoutes: FastifyPluginAsyncTypebox = async () => {};

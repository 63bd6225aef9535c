import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const regionsRoutes: FastifyPluginAsyncTypebox = async () => {};

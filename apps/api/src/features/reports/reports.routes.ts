import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const reportsRoutes: FastifyPluginAsyncTypebox = async () => {};

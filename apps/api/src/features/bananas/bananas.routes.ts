import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const bananasRoutes: FastifyPluginAsyncTypebox = async () => {};

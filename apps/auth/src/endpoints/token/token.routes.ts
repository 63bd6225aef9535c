import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const tokenRoutes: FastifyPluginAsyncTypebox = async () => {};

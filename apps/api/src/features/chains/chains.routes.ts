import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const chainsRoutes: FastifyPluginAsyncTypebox = async () => {};

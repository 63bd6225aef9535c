import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const userinfoRoutes: FastifyPluginAsyncTypebox = async () => {};

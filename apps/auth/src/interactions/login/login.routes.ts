import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const loginRoutes: FastifyPluginAsyncTypebox = async () => {};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const quizzesRoutes: FastifyPluginAsyncTypebox = async () => {};

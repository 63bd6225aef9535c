import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const forumRoutes: FastifyPluginAsyncTypebox = async () => {};

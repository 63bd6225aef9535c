import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const jwksRoutes: FastifyPluginAsyncTypebox = async () => {};

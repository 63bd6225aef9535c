import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const discoveryRoutes: FastifyPluginAsyncTypebox = async () => {};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const revokeRoutes: FastifyPluginAsyncTypebox = async () => {};

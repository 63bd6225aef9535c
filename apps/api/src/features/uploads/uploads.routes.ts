import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const uploadsRoutes: FastifyPluginAsyncTypebox = async () => {};

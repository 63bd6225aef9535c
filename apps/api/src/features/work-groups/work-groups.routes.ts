import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const workGroupsRoutes: FastifyPluginAsyncTypebox = async () => {};

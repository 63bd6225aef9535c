import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const connectedAppsRoutes: FastifyPluginAsyncTypebox = async () => {};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const oauthClientsAdminRoutes: FastifyPluginAsyncTypebox = async () => {};

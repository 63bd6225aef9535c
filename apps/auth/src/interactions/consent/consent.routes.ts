import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const consentRoutes: FastifyPluginAsyncTypebox = async () => {};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const passportRoutes: FastifyPluginAsyncTypebox = async () => {};

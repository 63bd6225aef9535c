import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface OpenApiOptions {
  baseUrl: string;
}

/** Placeholder until the OpenAPI document is generated (issue #3). */
export const openApiPlugin = fp(async (_app: FastifyInstance, _options: OpenApiOptions) => {}, {
  name: 'foodshare-openapi',
});

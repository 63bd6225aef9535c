import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';

export interface OpenApiOptions {
  /** The public origin; the document's server is `${baseUrl}/api`-relative paths under it. */
  baseUrl: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function methodsOf(method: string | string[]): string[] {
  return Array.isArray(method) ? method : [method];
}

/**
 * The OpenAPI 3.1 document, generated from the TypeBox schemas each route declares (so it cannot
 * drift from what the routes validate), at /api/openapi.json, and an interactive page at
 * /api/docs. State-changing operations name the `api_key` scheme of SPEC.md: the session's CSRF
 * token in `X-CSRF-Token`.
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance, { baseUrl }: OpenApiOptions) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Food-sharing platform REST interface',
          version: '1.0.0',
          description:
            'Log in with POST /api/login; the session lives in an HttpOnly cookie. ' +
            'Every state-changing request must echo the CSRF token (the readable `fs_csrf` ' +
            'cookie) in the X-CSRF-Token header. Errors are application/problem+json with a ' +
            'stable `code`.',
        },
        servers: [{ url: baseUrl }],
        components: {
          securitySchemes: {
            api_key: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
          },
        },
      },
      // Health probes and the documentation itself are not part of the interface.
      hideUntagged: true,
      transform: ({ schema, url, route }) => {
        const writes = methodsOf(route.method).some((method) => !SAFE_METHODS.has(method));
        if (!writes || route.config?.csrf === false) return { schema, url };
        const withSecurity = { ...schema, security: [{ api_key: [] }] } as FastifySchema;
        return { schema: withSecurity, url };
      },
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      uiConfig: { docExpansion: 'list', deepLinking: true },
    });
    app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
  },
  { name: 'foodshare-openapi' },
);

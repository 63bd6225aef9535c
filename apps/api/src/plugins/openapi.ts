import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';

export interface OpenApiOptions {
  /** The public origin; the document's server is `${baseUrl}/api`-relative paths under it. */
  baseUrl: string;
}

const API_KEY_DESCRIPTION =
  'The CSRF token of the session: the value of the readable `fs_csrf` cookie (`__Host-fs_csrf` ' +
  'over HTTPS) that login sets next to the HttpOnly session cookie. Every request that changes ' +
  'data (POST, PATCH, DELETE) must send it in this header, or gets 403 CSRF_FAILED. GET ' +
  'requests need only the session cookie and may leave the header out. Without a live session ' +
  'every operation but login and logout answers 401.';

/**
 * The OpenAPI 3.1 document, generated from the TypeBox schemas each route declares (so it cannot
 * drift from what the routes validate), at /api/openapi.json, and an interactive page at
 * /api/docs. Every operation names the `api_key` scheme, as SPEC.md says of every REST endpoint:
 * the session's CSRF token in `X-CSRF-Token`. Only login, which starts the session, has none.
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
            api_key: {
              type: 'apiKey',
              in: 'header',
              name: 'X-CSRF-Token',
              description: API_KEY_DESCRIPTION,
            },
          },
        },
      },
      // Health probes and the documentation itself are not part of the interface.
      hideUntagged: true,
      transform: ({ schema, url, route }) => {
        if (route.config?.csrf === false) return { schema, url };
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

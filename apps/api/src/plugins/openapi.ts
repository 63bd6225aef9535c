import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE } from './wire-conventions.ts';

export interface OpenApiOptions {
  /** The public origin; the document's server is `${baseUrl}/api`-relative paths under it. */
  baseUrl: string;
}

const API_KEY_DESCRIPTION =
  'The CSRF token of the session: the value of the readable `CSRF_TOKEN` cookie (`__Host-CSRF_TOKEN` ' +
  'over HTTPS) that login sets next to the HttpOnly session cookie. Every request that changes ' +
  'data (POST, PATCH, DELETE) must send it in this header, or gets 403 CSRF_FAILED. GET ' +
  'requests need only the session cookie and may leave the header out. Without a live session ' +
  'every operation but login and logout answers 401.';

/**
 * The OpenAPI 3.1 document, generated from the TypeBox schemas each route declares (so it cannot
 * drift from what the routes validate), at /api/openapi.json, and an interactive page at
 * /api/docs. Every operation names the `api_key` scheme, as docs/spec.md §4 says of every REST
 * endpoint: the session's CSRF token in `X-CSRF-Token`. Only login, which starts the session,
 * has none.
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
            'Every state-changing request must echo the CSRF token (the readable `CSRF_TOKEN` ' +
            'cookie) in the X-CSRF-Token header. Errors are application/problem+json with a ' +
            'stable `code`. Every success answers 200. A request body may be JSON or a form ' +
            '(`application/x-www-form-urlencoded`, PHP-style brackets such as `kams[0]=1` or ' +
            '`kams[]=1`, booleans as 1/0 or true/false, numbers as decimal text); an empty JSON ' +
            'body is no body, and keys an operation does not know are ignored. Whether the ' +
            'caller may act (401, 404, 403) is decided before the body is judged (400, 422).',
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
        // A body is accepted as JSON or as a form, alike (the wire conventions).
        const consumes = schema?.body ? { consumes: [JSON_CONTENT_TYPE, FORM_CONTENT_TYPE] } : {};
        const security = route.config?.csrf === false ? {} : { security: [{ api_key: [] }] };
        const documented: FastifySchema = { ...schema, ...consumes, ...security };
        return { schema: documented, url };
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

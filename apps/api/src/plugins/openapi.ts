import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { DOCS_PAGE_CSP, docsPageTheme, DOCS_PAGE_UI_CONFIG } from './docs-page.ts';
import { componentSchemas, referenceComponents, usedComponentNames } from './openapi-components.ts';
import {
  CSRF_SCHEME,
  OPERATION_TAGS,
  requireOperationNaming,
  BEARER_SCHEME,
  securityOf,
  SESSION_SCHEME,
} from './openapi-operations.ts';
import { documentedResponses } from './openapi-responses.ts';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE } from './platform-wire-format.ts';

export interface OpenApiOptions {
  /** The public origin; the document's server is `${baseUrl}/api`-relative paths under it. */
  baseUrl: string;
}

const CSRF_DESCRIPTION =
  'The CSRF token of the session: the value of the readable `CSRF_TOKEN` cookie (`__Host-CSRF_TOKEN` ' +
  'over HTTPS) that login sets next to the HttpOnly session cookie. Every request that changes ' +
  'data (POST, PATCH, DELETE) must send it in this header, or gets 403 CSRF_FAILED. GET ' +
  'requests need only the session cookie and may leave the header out.';

const BEARER_DESCRIPTION =
  'An access token of the authorization server with the scope `api`, which an admin allows an ' +
  'application (docs/oauth.md §11): `Authorization: Bearer <token>`, or `Authorization: DPoP ' +
  '<token>` with a `DPoP` proof for a token bound to a key. It stands in for the session: no ' +
  'cookie and no X-CSRF-Token header. A bad token answers 401 and a token without `api` 403, ' +
  'each with a `WWW-Authenticate` challenge (RFC 6750 §3); login and logout take no token.';

const SESSION_DESCRIPTION =
  'The HttpOnly session cookie that POST /api/login sets. Without a live session every ' +
  'operation but login and logout answers 401.';

/**
 * The OpenAPI 3.1 document, generated from the TypeBox schemas each route declares (so it cannot
 * drift from what the routes validate), at /api/openapi.json, and an interactive page at
 * /api/docs. Every operation has an operationId and a tag of OPERATION_TAGS; the named schemas
 * of @foodshare/schemas are `components.schemas`, referenced by `$ref`; the session cookie and
 * the `X-CSRF-Token` header are security schemes, named on each operation as securityOf says.
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance, { baseUrl }: OpenApiOptions) => {
    const operationIds = new Set<string>();
    app.addHook('onRoute', (route) => requireOperationNaming(route, operationIds));
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Food-sharing platform REST interface',
          version: '1.0.0',
          license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
          description:
            'Log in with POST /api/login; the session lives in an HttpOnly cookie. ' +
            'Every state-changing request must echo the CSRF token (the readable `CSRF_TOKEN` ' +
            'cookie) in the X-CSRF-Token header. An application calls it with an access token ' +
            'with the scope `api` instead (the `bearer` scheme), which needs no CSRF token. Errors are application/problem+json with a ' +
            'stable `code`. A method a path does not have is answered 405 with an `Allow` ' +
            'header that lists the methods it has. Every success answers 200. A request body may be JSON or a form ' +
            '(`application/x-www-form-urlencoded`, PHP-style brackets such as `kams[0]=1` or ' +
            '`kams[]=1`, booleans as 1/0 or true/false, numbers as decimal text); an empty JSON ' +
            'body is no body, and keys an operation does not know are ignored. Whether the ' +
            'caller may act (401, 404, 403) is decided before the body is judged (400, 422).',
        },
        servers: [{ url: baseUrl }],
        tags: OPERATION_TAGS,
        components: {
          schemas: componentSchemas(),
          securitySchemes: {
            [SESSION_SCHEME]: {
              type: 'apiKey',
              in: 'cookie',
              name: app.sessionCookies.names.session,
              description: SESSION_DESCRIPTION,
            },
            [CSRF_SCHEME]: {
              type: 'apiKey',
              in: 'header',
              name: 'X-CSRF-Token',
              description: CSRF_DESCRIPTION,
            },
            [BEARER_SCHEME]: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'JWT',
              description: BEARER_DESCRIPTION,
            },
          },
        },
      },
      // Health probes and the documentation itself are not part of the interface.
      hideUntagged: true,
      transform: ({ schema, url, route }) => {
        // A body is accepted as JSON or as a form, alike (the wire conventions).
        const consumes = schema?.body ? { consumes: [JSON_CONTENT_TYPE, FORM_CONTENT_TYPE] } : {};
        const documented: FastifySchema = {
          ...schema,
          ...consumes,
          body: referenceComponents(schema?.body),
          response: documentedResponses(route, schema?.response),
          security: securityOf(route),
        };
        return { schema: documented, url };
      },
      transformObject: (documentObject) => {
        if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
        const { openapiObject } = documentObject;
        const schemas = openapiObject.components?.schemas ?? {};
        const used = usedComponentNames(openapiObject.paths, schemas);
        for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
        return openapiObject;
      },
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      uiConfig: DOCS_PAGE_UI_CONFIG,
      theme: docsPageTheme,
      staticCSP: DOCS_PAGE_CSP,
    });
    app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
  },
  { name: 'foodshare-openapi', dependencies: ['foodshare-session'] },
);

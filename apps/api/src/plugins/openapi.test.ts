import { describe, expect, it, test } from '../test-support/fixtures.ts';

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: Record<string, unknown>;
}

interface Operation {
  operationId?: string;
  security?: unknown;
  requestBody?: { content: Record<string, unknown> };
  responses?: Record<
    string,
    { description?: string; content?: Record<string, unknown>; headers?: Record<string, unknown> }
  >;
  tags?: string[];
  parameters?: Parameter[];
}

interface OpenApiDocument {
  openapi: string;
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  components: {
    securitySchemes: Record<string, { description?: string }>;
    schemas: Record<string, unknown>;
  };
  paths: Record<string, Record<string, Operation>>;
}

/** What each kind of operation asks of the caller (plugins/openapi-operations.ts). */
const withToken = { session: [], api_key: [] };
const byAccessToken = { bearer: [] };
const needsSessionAndToken = [withToken, byAccessToken];
const needsSession = [withToken, { session: [] }, byAccessToken];

function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ path, method, operation })),
  );
}

/** Every `$ref` in a part of the document, as the component name it points to. */
function referencesIn(value: unknown): string[] {
  const json = JSON.stringify(value);
  return [...json.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] ?? '');
}

// The parameter types and patterns of docs/spec.md §4.1; the document anchors the patterns
// (`^...$`).
const positive = { type: 'string', pattern: '^[1-9][0-9]*$' };
const digits = { type: 'string', pattern: '^\\d+$' };
const integerId = { type: 'integer', minimum: 1 };
const dateTime = { type: 'string', format: 'date-time' };

/** Answered by any operation, whatever it does (plugins/openapi-responses.ts). */
const GENERIC_STATUSES = new Set(['408', '413', '415', '503']);

interface SpecRow {
  row: number;
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  params: Record<string, Record<string, unknown>>;
  query?: Record<string, Record<string, unknown>>;
  /**
   * The statuses docs/spec.md §7.1 lists: exactly these where it gives the full list, else at
   * least.
   */
  statuses: { exactly?: string[]; atLeast?: string[] };
}

const specRows: SpecRow[] = [
  {
    row: 1,
    method: 'get',
    path: '/api/forum/post/{postId}/hide',
    params: { postId: { type: 'string' } },
    statuses: { atLeast: ['200'] },
  },
  {
    row: 2,
    method: 'post',
    path: '/api/conversations/{conversationId}/messages',
    params: { conversationId: digits },
    statuses: {},
  },
  {
    row: 3,
    method: 'get',
    path: '/api/users/{userId}/reports',
    params: { userId: integerId },
    statuses: { atLeast: ['200'] },
  },
  {
    row: 4,
    method: 'delete',
    path: '/api/groups/{groupId}/applications/{userId}',
    params: { groupId: positive, userId: positive },
    statuses: { exactly: ['200', '401', '403', '404'] },
  },
  {
    row: 5,
    method: 'post',
    path: '/api/users/current/quiz-sessions/{quizId}/confirmation',
    params: { quizId: positive },
    statuses: { exactly: ['200', '400', '401', '403', '404'] },
  },
  {
    row: 6,
    method: 'get',
    path: '/api/search/index',
    params: {},
    statuses: { atLeast: ['200'] },
  },
  {
    row: 7,
    method: 'post',
    path: '/api/user/current/passport',
    params: {},
    statuses: { exactly: ['200', '401', '403'] },
  },
  {
    row: 8,
    method: 'get',
    path: '/api/stores/{storeId}/log/{fromDate}/{toDate}/actions/{storeLogActionIds}',
    params: {
      storeId: integerId,
      fromDate: dateTime,
      toDate: dateTime,
      storeLogActionIds: { type: 'string', pattern: '^\\d+(,\\d+)*$' },
    },
    query: { limit: { type: 'integer' }, offset: { type: 'integer' } },
    statuses: { atLeast: ['200'] },
  },
  {
    row: 9,
    method: 'get',
    path: '/api/chains/{chainId}',
    params: { chainId: positive },
    statuses: { atLeast: ['200'] },
  },
  {
    row: 10,
    method: 'post',
    path: '/api/conversations/{conversationId}/readStatus',
    params: { conversationId: digits },
    query: { read: {} },
    statuses: {},
  },
  {
    row: 11,
    method: 'patch',
    path: '/api/chains/{chainId}',
    params: { chainId: positive },
    statuses: { atLeast: ['200'] },
  },
  {
    row: 12,
    method: 'get',
    path: '/api/resources/own',
    params: {},
    statuses: { atLeast: ['200'] },
  },
  {
    row: 13,
    method: 'delete',
    path: '/api/users/{recipientId}/bananas/{senderId}',
    params: { recipientId: integerId, senderId: integerId },
    statuses: { atLeast: ['401'] },
  },
  {
    row: 14,
    method: 'delete',
    path: '/api/quiz/{quizId}/questions/{questionId}/answers/{answerId}',
    params: { quizId: digits, questionId: digits, answerId: digits },
    statuses: { atLeast: ['200'] },
  },
  {
    row: 15,
    method: 'post',
    path: '/api/region/{regionId}/options',
    // docs/spec.md §4.1: integer with pattern `\d+`. A pattern on an integer means nothing in JSON
    // Schema (Ajv's strict mode refuses it); a non-negative integer is that set of values.
    params: { regionId: { type: 'integer', minimum: 0 } },
    statuses: { atLeast: ['200'] },
  },
  {
    row: 16,
    method: 'get',
    path: '/api/regions/{regionId}',
    params: { regionId: positive },
    statuses: { atLeast: ['200'] },
  },
  {
    row: 17,
    method: 'post',
    path: '/api/users/{recipientId}/bananas',
    // docs/spec.md §4.1 gives a string of pattern `[1-9][0-9]*` here and an integer in row 13:
    // one parameter of one path has one type in the document, row 13's (the pattern still
    // holds on the wire, docs/design.md §3.2).
    params: { recipientId: integerId },
    statuses: { atLeast: [] },
  },
  {
    row: 18,
    method: 'get',
    path: '/api/stores/{storeId}/requests',
    params: { storeId: positive },
    statuses: { atLeast: ['200'] },
  },
];

test.override('appEnv', { scope: 'file' }, { BASE_URL: 'https://food.example.org' });

describe('the OpenAPI document and its documentation page', () => {
  let document: OpenApiDocument;

  test.beforeAll(async ({ anonymous }) => {
    const response = await anonymous.get('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    document = response.json();
  });

  it('is OpenAPI 3.1 served for the configured origin', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'https://food.example.org' }]);
  });

  it('declares the api_key scheme of docs/spec.md §5.1: the X-CSRF-Token header', () => {
    expect(document.components.securitySchemes.api_key).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-CSRF-Token',
      description: expect.stringContaining('GET requests need only the session cookie'),
    });
  });

  it('declares the access token as a scheme beside the session (docs/oauth.md §11)', () => {
    expect(document.components.securitySchemes.bearer).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: expect.stringContaining('the scope `api`'),
    });
  });

  it('declares the session cookie as a scheme, by the name the app sets it', ({ app }) => {
    expect(document.components.securitySchemes.session).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: app.sessionCookies.names.session,
      description: expect.stringContaining('POST /api/login'),
    });
    // BASE_URL is https: the cookie takes the __Host- prefix, and the document says so.
    expect(app.sessionCookies.names.session).toBe('__Host-fs_session');
  });

  it('lists the routes the app serves, with their response schemas, and hides the probes', () => {
    const current = document.paths['/api/users/current']?.get;
    expect(current?.responses).toHaveProperty('200');
    expect(current?.responses).toHaveProperty('401');
    expect(Object.keys(document.paths).some((path) => path.startsWith('/health'))).toBe(false);
    expect(document.paths).not.toHaveProperty('/api/openapi.json');
  });

  it('asks the session or an access token of every operation but login and logout, and the CSRF token of every write by session', () => {
    for (const { path, method, operation } of operationsOf(document)) {
      const expected =
        path === '/api/login'
          ? []
          : path === '/api/logout'
            ? [{}, withToken]
            : method === 'get'
              ? needsSession
              : needsSessionAndToken;
      expect(operation.security, `${method} ${path}`).toEqual(expected);
    }
  });

  it('names every operation once, in camelCase, for the functions of generated clients', () => {
    const operationIds = operationsOf(document).map(({ operation }) => operation.operationId);
    for (const operationId of operationIds) expect(operationId).toMatch(/^[a-z][a-zA-Z]+$/);
    expect(new Set(operationIds).size).toBe(operationIds.length);
    expect(document.paths['/api/stores/{storeId}/requests']?.get?.operationId).toBe(
      'getStoreRequests',
    );
  });

  it('lists each tag the operations use once, with a description, and no other', () => {
    const used = new Set(operationsOf(document).flatMap(({ operation }) => operation.tags ?? []));
    expect(document.tags.map((tag) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of document.tags) expect(tag.description, tag.name).toMatch(/\w/);
  });

  it('refers to named schemas by $ref, each defined once under components.schemas', () => {
    const { schemas } = document.components;
    const fromPaths = new Set(referencesIn(document.paths));
    const fromComponents = new Set(referencesIn(schemas));
    for (const name of [...fromPaths, ...fromComponents]) expect(schemas).toHaveProperty([name]);
    // None unused: parameters stay inline, and the authorization server's schemas are left out.
    for (const name of Object.keys(schemas)) {
      expect(fromPaths.has(name) || fromComponents.has(name), name).toBe(true);
    }
    expect(schemas).not.toHaveProperty(['OAuthClient']);
    const requests = document.paths['/api/stores/{storeId}/requests']?.get?.responses;
    expect(referencesIn(requests?.['200'])).toEqual(['StoreTeamRequestList']);
    expect(referencesIn(requests?.['404'])).toEqual(['Problem']);
    // The user stub is one component, referred to wherever a user is named.
    expect(referencesIn(schemas.StoreTeamRequest)).toEqual(['UserStub']);
    expect(schemas.UserStub).toMatchObject({ type: 'object', title: 'UserStub' });
  });

  it('has no two paths that differ only in the names of their parameters', () => {
    const shapes = Object.keys(document.paths).map((path) => path.replace(/\{[^}]+\}/g, '{}'));
    expect(shapes.length - new Set(shapes).size).toBe(0);
  });

  it('names and types the user of the banana paths alike in every operation', () => {
    const recipients = operationsOf(document)
      .filter(({ path }) => path.startsWith('/api/users/{recipientId}/bananas'))
      .map(({ operation }) => operation.parameters?.find((p) => p.name === 'recipientId')?.schema);
    // Give, list, and remove (row 13).
    expect(recipients).toHaveLength(3);
    for (const schema of recipients) expect(schema).toEqual(recipients[0]);
    expect(recipients[0]).toMatchObject(integerId);
  });

  it('covers all 18 rows of docs/spec.md §4.1', () => {
    expect(specRows.map((row) => row.row)).toEqual(Array.from({ length: 18 }, (_, i) => i + 1));
    expect(new Set(specRows.map((row) => `${row.method} ${row.path}`)).size).toBe(18);
  });

  it.each(specRows)(
    'row $row: $method $path, with the parameters, statuses and scheme of docs/spec.md §4.1',
    ({ method, path, params, query = {}, statuses }) => {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path} is missing`).toBeDefined();
      if (!operation) return;
      const parameters = operation.parameters ?? [];
      const inPath = parameters.filter((parameter) => parameter.in === 'path');
      expect(inPath.map((parameter) => parameter.name).sort()).toEqual(Object.keys(params).sort());
      for (const [name, schema] of Object.entries(params)) {
        const parameter = inPath.find((candidate) => candidate.name === name);
        expect(parameter?.required, name).toBe(true);
        expect(parameter?.schema, name).toMatchObject(schema);
      }
      for (const [name, schema] of Object.entries(query)) {
        const parameter = parameters.find((p) => p.in === 'query' && p.name === name);
        expect(parameter?.required ?? false, name).toBe(false);
        expect(parameter?.schema, name).toMatchObject(schema);
      }
      const documented = Object.keys(operation.responses ?? {}).sort();
      // The statuses any operation may give besides its own are no part of a row's list.
      const own = documented.filter((status) => !GENERIC_STATUSES.has(status));
      if (statuses.exactly) expect(own).toEqual(statuses.exactly);
      expect(documented).toEqual(expect.arrayContaining(statuses.atLeast ?? []));
      // Every route of docs/spec.md §4.1 needs a session, so each documents 401, and a success.
      expect(documented).toContain('401');
      expect(documented.some((status) => status.startsWith('2'))).toBe(true);
      expect(operation.security).toEqual(method === 'get' ? needsSession : needsSessionAndToken);
    },
  );

  it('gives the passport as application/pdf and the read flag of row 10 as 0 or 1', () => {
    const passport = document.paths['/api/user/current/passport']?.post?.responses?.['200'];
    expect(Object.keys(passport?.content ?? {})).toEqual(['application/pdf']);
    const readStatus = document.paths['/api/conversations/{conversationId}/readStatus']?.post;
    const read = readStatus?.parameters?.find((parameter) => parameter.name === 'read');
    expect(JSON.stringify(read?.schema)).toMatch(/"0".*"1"/);
  });

  it('offers every request body as JSON and as a form, and 200 as the only success', () => {
    let bodies = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const successes = Object.keys(operation.responses ?? {}).filter((s) => s.startsWith('2'));
        expect(successes, `${method} ${path}`).toEqual(['200']);
        if (!operation.requestBody) continue;
        bodies += 1;
        expect(Object.keys(operation.requestBody.content), `${method} ${path}`).toEqual([
          'application/json',
          'application/x-www-form-urlencoded',
        ]);
      }
    }
    // Login, forum hide, message, chain, region options and banana.
    expect(bodies).toBe(6);
  });

  it('gives every error as application/problem+json with the Problem body, as it is sent', () => {
    let errors = 0;
    for (const { path, method, operation } of operationsOf(document)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) < 400 || status === '408') continue;
        errors += 1;
        expect(response.content, `${method} ${path} ${status}`).toEqual({
          'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
        });
        expect(response.description, `${method} ${path} ${status}`).not.toBe('Default Response');
      }
    }
    expect(errors).toBeGreaterThan(100);
  });

  it('documents the answers any operation may give: 408 and 503, and 413 and 415 on writes', () => {
    for (const { path, method, operation } of operationsOf(document)) {
      const statuses = Object.keys(operation.responses ?? {});
      const expected = method === 'get' ? ['408', '503'] : ['408', '413', '415', '503'];
      expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(expected));
      if (method === 'get') expect(statuses, `${method} ${path}`).not.toContain('413');
      // The HTTP server answers a timed-out request itself, with no problem body.
      expect(operation.responses?.['408']?.content, `${method} ${path}`).toBeUndefined();
      expect(operation.responses?.['503']?.headers, `${method} ${path}`).toHaveProperty(
        'retry-after',
      );
    }
  });

  it('documents 404 wherever a path parameter can fail its pattern, getUserReports too', () => {
    for (const { path, method, operation } of operationsOf(document)) {
      if (!(operation.parameters ?? []).some((parameter) => parameter.in === 'path')) continue;
      expect(Object.keys(operation.responses ?? {}), `${method} ${path}`).toContain('404');
    }
    expect(document.paths['/api/users/{userId}/reports']?.get?.responses).toHaveProperty('404');
  });

  it('gives an upload under the media types it is served with, and 304 without a body', () => {
    const responses = document.paths['/api/uploads/{uploadId}']?.get?.responses;
    expect(Object.keys(responses?.['200']?.content ?? {})).toEqual([
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
      '*/*',
    ]);
    expect(responses?.['304']?.content).toBeUndefined();
    for (const status of ['200', '304']) {
      expect(Object.keys(responses?.[status]?.headers ?? {}), status).toEqual([
        'etag',
        'cache-control',
      ]);
    }
  });

  it('every operation is tagged, so the documentation page groups it', () => {
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        expect(operation.tags?.length ?? 0).toBeGreaterThan(0);
      }
    }
  });

  it('serves an interactive documentation page at /api/docs', async ({ anonymous }) => {
    const response = await anonymous.get('/api/docs/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('swagger-ui');
  });
});

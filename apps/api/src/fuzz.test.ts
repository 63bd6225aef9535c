import {
  databaseFingerprint,
  type DatabaseFingerprint,
  FUZZ_RUNS,
  fuzzOperations,
  hostileValue,
  type JsonSchema,
  parameterValue,
  schemaValue,
} from '@foodshare/testing/fuzz';
import fc from 'fast-check';
import { phpFormEncode } from './compat/platform-client.ts';
import { describe, expect, it, test } from './test-support/fixtures.ts';

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: JsonSchema;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: Body }>>;
}
interface Body {
  content?: Record<string, { schema?: JsonSchema }>;
}

function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      parameters: operation.parameters ?? [],
      body: operation.requestBody?.content?.['application/json']?.schema,
    })),
  );
}

type Caller = 'anonymous' | 'bob' | 'alice' | 'dana' | 'kim' | 'orga';
const CALLERS: Caller[] = ['anonymous', 'bob', 'alice', 'dana', 'kim', 'orga'];

/** How the body travels: as JSON, as a form, as broken JSON, or not at all. */
type Wire = 'json' | 'form' | 'broken-json' | 'none';

const requestOf = (operation: Operation) =>
  fc.record({
    caller: fc.constantFrom(...CALLERS),
    csrf: fc.boolean(),
    path: fc.tuple(
      ...operation.parameters
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) =>
          parameterValue(parameter.schema ?? {}).map((value) => [parameter.name, value] as const),
        ),
    ),
    query: fc.array(
      fc.oneof(
        ...operation.parameters
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) =>
            parameterValue(parameter.schema ?? {}).map((value) => [parameter.name, value] as const),
          ),
        fc.tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 10 })),
      ),
      { maxLength: 4 },
    ),
    wire: fc.constantFrom<Wire>('json', 'form', 'broken-json', 'none'),
    body: operation.body ? schemaValue(operation.body) : hostileValue,
  });

/** Any generated value as text; objects without a prototype have no toString. */
function textOf(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** encodeURIComponent refuses lone surrogates, which the generators produce on purpose. */
const encodeSegment = (value: string) => encodeURIComponent(value.toWellFormed());

function formOf(body: unknown): string {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    return phpFormEncode(body as Parameters<typeof phpFormEncode>[0]);
  }
  return `value=${encodeURIComponent(textOf(body).toWellFormed())}`;
}

describe('fuzzing every REST operation from the OpenAPI document', () => {
  let fingerprint: DatabaseFingerprint;
  let operations: Operation[];

  test.beforeAll(async ({ testApp, anonymous }) => {
    fingerprint = await databaseFingerprint(testApp.database.url);
    const document = (await anonymous.get('/api/openapi.json')).json<OpenApiDocument>();
    operations = operationsOf(document).filter((operation) =>
      operation.path.includes(process.env.FUZZ_ONLY ?? ''),
    );
  });

  test.afterAll(async () => {
    await fingerprint?.close();
  });

  it('covers every operation the service registers', () => {
    // A route left out of the document would be left out of the fuzzing too.
    expect(operations.length).toBeGreaterThanOrEqual(18);
  });

  it('answers every generated request without a 5xx, and a refused write changes nothing', async ({
    app,
    as,
  }) => {
    const { failures, sent } = await fuzzOperations({
      operations,
      fingerprint,
      nameOf: (operation) => `${operation.method} ${operation.path}`,
      requestOf,
      async prepare(operation, generated) {
        let url = operation.path;
        for (const [name, value] of generated.path) {
          url = url.replace(`{${name}}`, encodeSegment(value));
        }
        const query = new URLSearchParams(
          generated.query.map(
            ([key, value]) => [key.toWellFormed(), value.toWellFormed()] as [string, string],
          ),
        ).toString();
        if (query) url += `?${query}`;

        const headers: Record<string, string> = {};
        let cookies: Record<string, string> | undefined;
        if (generated.caller !== 'anonymous') {
          const client = await as(generated.caller);
          cookies = client.cookies;
          if (generated.csrf) Object.assign(headers, client.headers);
        }
        let payload: string | undefined;
        if (generated.wire === 'json') {
          headers['content-type'] = 'application/json';
          payload = JSON.stringify(generated.body) ?? '';
        } else if (generated.wire === 'form') {
          headers['content-type'] = 'application/x-www-form-urlencoded';
          payload = formOf(generated.body);
        } else if (generated.wire === 'broken-json') {
          headers['content-type'] = 'application/json';
          payload = `${JSON.stringify(generated.body) ?? ''}{`;
        }
        return {
          label: `${operation.method} ${url} as ${generated.caller} (${generated.wire})`,
          isWrite: !['GET', 'HEAD', 'OPTIONS'].includes(operation.method),
          send: () =>
            app.inject({
              method: operation.method as 'GET',
              url,
              headers,
              ...(cookies ? { cookies } : {}),
              ...(payload === undefined ? {} : { payload }),
            }),
        };
      },
    });
    expect(failures).toEqual([]);
    expect(sent).toBe(operations.length * FUZZ_RUNS);
  }, 300_000);
});

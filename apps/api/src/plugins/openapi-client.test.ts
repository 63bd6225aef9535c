import type { OpenAPI3 } from 'openapi-typescript';
import { specRoutes, type SpecRoute } from '../test-support/spec-routes.ts';
import { generateClientTypes, typeCheck } from '../test-support/typed-client.ts';
import { describe, expect, it, test } from '../test-support/fixtures.ts';

interface Parameter {
  name: string;
  in: string;
  schema: { type?: string; format?: string };
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
}

type Paths = Record<string, Record<string, Operation>>;

const COMPONENT = '#/components/schemas/';

/** The name of the component a body or answer refers to, if it is one. */
function componentOf(schema: { $ref?: string } | undefined): string | undefined {
  return schema?.$ref?.startsWith(COMPONENT) ? schema.$ref.slice(COMPONENT.length) : undefined;
}

/** A value of the parameter's type, written as a TypeScript literal. */
function literalFor(parameter: Parameter): string {
  if (parameter.schema.type === 'integer') return '1';
  if (parameter.schema.format === 'date-time') return "'2026-11-01T00:00:00+01:00'";
  return "'1'";
}

/**
 * A typed call of the generated client to one row of docs/spec.md §4.1: the path parameters as
 * literals of the types the document gives them, the body as the named component the document
 * refers to, and the JSON answer taken as the named component of its 200.
 */
function typedCall({ row, method, path }: SpecRoute, paths: Paths): string {
  const operation = paths[path]?.[method.toLowerCase()];
  const pathParameters = (operation?.parameters ?? []).filter((p) => p.in === 'path');
  const init: string[] = [];
  if (pathParameters.length > 0) {
    const values = pathParameters.map((p) => `${p.name}: ${literalFor(p)}`).join(', ');
    init.push(`params: { path: { ${values} } }`);
  }
  const bodyComponent = componentOf(operation?.requestBody?.content['application/json']?.schema);
  if (bodyComponent !== undefined) init.push('body');
  const answer = componentOf(operation?.responses['200']?.content?.['application/json']?.schema);
  const call = `await client.${method}('${path}'${init.length > 0 ? `, { ${init.join(', ')} }` : ''})`;
  return [
    `// docs/spec.md §4.1 row ${row}`,
    `export async function row${row}(${bodyComponent === undefined ? '' : `body: components['schemas']['${bodyComponent}']`}) {`,
    answer === undefined
      ? `  return ${call};`
      : `  const { data } = ${call};\n  const answer: components['schemas']['${answer}'] | undefined = data;\n  return answer;`,
    '}',
  ].join('\n');
}

const HEADER = [
  "import createClient from 'openapi-fetch';",
  "import type { components, paths } from './schema.ts';",
  '',
  "const client = createClient<paths>({ baseUrl: 'https://food.example.org' });",
  '',
].join('\n');

/**
 * Calls a typed client must refuse, each in a file of its own, with the error that says why:
 * if one compiled, the generated types would not describe the interface.
 */
const WRONG_CALLS: { what: string; call: string; error: RegExp }[] = [
  {
    what: 'a path the document does not have',
    call: "await client.GET('/api/stores/{storeId}/no-such-list', { params: { path: { storeId: '1' } } });",
    error: /no-such-list.* is not assignable to parameter of type 'PathsWithMethod<paths, "get">'/,
  },
  {
    what: 'a method the path does not have',
    call: "await client.DELETE('/api/chains/{chainId}', { params: { path: { chainId: '1' } } });",
    error: /is not assignable to parameter of type 'PathsWithMethod<paths, "delete">'/,
  },
  {
    what: 'a path parameter of the wrong type',
    call: "await client.GET('/api/users/{userId}/reports', { params: { path: { userId: 'one' } } });",
    error: /Type 'string' is not assignable to type 'number'/,
  },
  {
    what: 'a missing path parameter',
    call: "await client.GET('/api/stores/{storeId}/requests', { params: { path: {} } });",
    error: /Property 'storeId' is missing/,
  },
  {
    what: 'a body without its required field',
    call: "await client.POST('/api/users/{recipientId}/bananas', { params: { path: { recipientId: 1 } }, body: { text: 'thanks' } });",
    error: /'text' does not exist in type '\{ message: string; \}/,
  },
  {
    what: 'a field the answer does not have',
    call: "const { data } = await client.GET('/api/chains/{chainId}', { params: { path: { chainId: '1' } } });\nexport const count: number | undefined = data?.numberOfStores;",
    error: /Property 'numberOfStores' does not exist/,
  },
];

test.override('appEnv', { scope: 'file' }, { BASE_URL: 'https://food.example.org' });

describe('a client generated from the live document with openapi-typescript', () => {
  let types: string;
  let paths: Paths;

  test.beforeAll(async ({ anonymous }) => {
    const response = await anonymous.get('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    const document = response.json<OpenAPI3 & { paths: Paths }>();
    paths = document.paths;
    types = await generateClientTypes(document);
  });

  it('names the operations and the component schemas', () => {
    expect(types).toContain('getStoreRequests: {');
    expect(types).toContain('StoreTeamRequestList: components["schemas"]["StoreTeamRequest"][]');
  });

  it('makes a typed call to every row of docs/spec.md §4.1, and refuses wrong ones at compile time', () => {
    const routes = specRoutes();
    // The rows are numbered 1..n without a gap, so none was missed by the reading.
    expect(routes.map((route) => route.row)).toEqual(routes.map((_, i) => i + 1));
    expect(routes.length).toBeGreaterThanOrEqual(18);
    const wrongFiles = Object.fromEntries(
      WRONG_CALLS.map(({ call }, i) => [`wrong-${i}.ts`, `${HEADER}${call}\n`]),
    );
    const errors = typeCheck({
      'schema.ts': types,
      'usage.ts': HEADER + routes.map((route) => typedCall(route, paths)).join('\n\n') + '\n',
      ...wrongFiles,
    });
    expect(errors['schema.ts']).toEqual([]);
    expect(errors['usage.ts']).toEqual([]);
    expect(errors['(other)'] ?? []).toEqual([]);
    WRONG_CALLS.forEach(({ what, error }, i) => {
      expect(errors[`wrong-${i}.ts`]?.join('\n'), what).toMatch(error);
    });
  }, 60_000);
});

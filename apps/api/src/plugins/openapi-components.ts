import * as schemas from '@foodshare/schemas';
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance } from 'fastify';

type SchemaNode = Record<string, unknown>;

function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The named schemas of `@foodshare/schemas`: every exported schema with a `title`, by title.
 * Two different schemas under one title would make one `$ref` mean two shapes: refused at boot.
 */
function namedSchemas(): Map<string, SchemaNode> {
  const byTitle = new Map<string, SchemaNode>();
  for (const [exportName, value] of Object.entries(schemas)) {
    if (!isSchemaNode(value) || typeof value.title !== 'string') continue;
    const known = byTitle.get(value.title);
    if (known !== undefined && !isDeepStrictEqual(known, value)) {
      throw new Error(`two schemas are titled ${value.title} (one of them is ${exportName})`);
    }
    byTitle.set(value.title, value);
  }
  return byTitle;
}

const components = namedSchemas();

/** The component a sub-schema is: its title names one, and it is that schema, unchanged. */
function componentName(node: SchemaNode): string | undefined {
  if (typeof node.title !== 'string') return undefined;
  const component = components.get(node.title);
  return component !== undefined && isDeepStrictEqual(component, node) ? node.title : undefined;
}

function referencing(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(referencing);
  if (!isSchemaNode(value)) return value;
  const name = componentName(value);
  // `Name#`: Fastify's way to name a schema added with addSchema.
  if (name !== undefined) return { $ref: `${name}#` };
  return referenceChildren(value);
}

function referenceChildren(node: SchemaNode): SchemaNode {
  return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, referencing(child)]));
}

/**
 * A copy of `schema` (a body or a response) in which every named sub-schema, itself included,
 * is a `$ref` to its component. For the OpenAPI document only: the routes keep validating and
 * serializing with their own inline schemas, because Ajv refuses a schema that carries one
 * `$id` twice (a conversation names two user stubs) and the body shaping reads the body
 * schema's properties (body-shape.ts).
 */
export function referenceComponents(schema: unknown): unknown {
  return referencing(schema);
}

/**
 * Adds every named schema as a shared schema with its title as `$id`, its own named parts as
 * references, so that @fastify/swagger lists it once under `components.schemas`.
 */
export function addComponentSchemas(app: FastifyInstance): void {
  for (const [name, schema] of components) {
    app.addSchema({ ...referenceChildren(schema), $id: name });
  }
}

function collectReferences(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectReferences(item, into);
    return;
  }
  if (!isSchemaNode(value)) return;
  const ref = value.$ref;
  if (typeof ref === 'string' && ref.startsWith(COMPONENT_PREFIX)) {
    into.add(ref.slice(COMPONENT_PREFIX.length));
  }
  for (const child of Object.values(value)) collectReferences(child, into);
}

const COMPONENT_PREFIX = '#/components/schemas/';

/**
 * The names of the component schemas the operations use, directly or through another
 * component: every named schema is registered (addComponentSchemas), but the path parameters
 * and the query strings stay inline, as do the schemas only the authorization server uses.
 */
export function usedComponentNames(paths: unknown, all: Record<string, unknown>): Set<string> {
  const used = new Set<string>();
  collectReferences(paths, used);
  const queue = [...used];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    const found = new Set<string>();
    collectReferences(all[name], found);
    for (const next of found) {
      if (used.has(next)) continue;
      used.add(next);
      queue.push(next);
    }
  }
  return used;
}

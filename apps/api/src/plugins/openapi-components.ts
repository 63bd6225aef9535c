import * as schemas from '@foodshare/schemas';
import { isDeepStrictEqual } from 'node:util';

type SchemaNode = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

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
  if (name !== undefined) return { $ref: `${COMPONENT_PREFIX}${name}` };
  return referenceChildren(value);
}

function referenceChildren(node: SchemaNode): SchemaNode {
  return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, referencing(child)]));
}

/**
 * A copy of `schema` (a body or a response) in which every named sub-schema, itself included,
 * is a `$ref` to its component. For the OpenAPI document only: the routes keep validating and
 * serializing with their own inline schemas. An `$id` on the schemas fails (Ajv refuses a
 * schema that carries one `$id` twice, and a conversation names two user stubs); routes that
 * referred to shared schemas would hide a body's properties from body-shape.ts; and merely
 * adding the hundred named schemas with `addSchema` cost about 5 s more per app boot
 * (measured: 6.4-12 s against 1.5-4.9 s, eight boots each, on two loaded cores).
 */
export function referenceComponents(schema: unknown): unknown {
  return referencing(schema);
}

/**
 * Every named schema by name, its own named parts as references: the document's
 * `components.schemas`, of which the unused are dropped (usedComponentNames).
 */
export function componentSchemas(): Record<string, SchemaNode> {
  return Object.fromEntries(
    [...components].map(([name, schema]) => [name, referenceChildren(schema)]),
  );
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

/**
 * The names of the component schemas the operations use, directly or through another
 * component: every named schema is offered (componentSchemas), but the path parameters
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

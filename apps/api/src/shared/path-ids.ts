import { ProblemSchema, parseIdParam } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import type { FastifyRequest } from 'fastify';

/** The error answers every route that names a resource by its path can give. */
export const resourceProblems = { 401: ProblemSchema, 403: ProblemSchema, 404: ProblemSchema };

const DIGITS = /^\d+$/;
const patterns = new Map<string, RegExp>();

/** `pattern`, else the one the route's params schema gives `name`; plain digits for an integer. */
function patternOf(request: FastifyRequest, name: string, pattern?: string): RegExp {
  const params = request.routeOptions.schema?.params as
    { properties?: Record<string, { pattern?: string }> } | undefined;
  const source = pattern ?? params?.properties?.[name]?.pattern;
  if (source === undefined) return DIGITS;
  let compiled = patterns.get(source);
  if (!compiled) patterns.set(source, (compiled = new RegExp(source)));
  return compiled;
}

/**
 * The id that path segment `name` names: the one way a route reads a path id, in a hook
 * (where the params are still raw text) or in its handler. A value that does not match
 * `pattern` (by default the route's params schema), or one beyond 32 bits, names no row: 404
 * (docs/design.md §3.2).
 * Routes call it after `requireActor`, so the answers come as 401, then 404, then 403
 * (docs/adding-an-endpoint.md §2.2).
 */
export function idFromPath(request: FastifyRequest, name: string, pattern?: string): number {
  const value = (request.params as Record<string, unknown>)[name];
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !patternOf(request, name, pattern).test(text))
    throw Problem.notFound();
  const id = parseIdParam(text);
  if (id === undefined) throw Problem.notFound();
  return id;
}

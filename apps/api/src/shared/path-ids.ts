import { ProblemSchema, parseIdParam } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import type { FastifyRequest } from 'fastify';
import { parsedAsActor } from './as-actor.ts';

/** The error answers every route that names a resource by its path can give. */
export const resourceProblems = { 401: ProblemSchema, 403: ProblemSchema, 404: ProblemSchema };

/**
 * The id a path segment names, once its pattern has matched. A value beyond 32 bits names no
 * row: the same 404 as a pattern mismatch (docs/design.md §3.2). Called right after
 * `requireActor` (docs/adding-an-endpoint.md §2.2).
 */
export function idFromPath(value: string): number {
  const id = parseIdParam(value);
  if (id === undefined) throw Problem.notFound();
  return id;
}

/**
 * `idFromPath` for a route that reads the caller's account in its own query (`runSqlAsActor`),
 * called before it: a value beyond 32 bits reads the account first, so that an inactive account
 * still gets its 401 before this 404 (docs/adding-an-endpoint.md §2.4).
 */
export function idFromPathAsActor(request: FastifyRequest, value: string): Promise<number> {
  return parsedAsActor(request, () => idFromPath(value));
}

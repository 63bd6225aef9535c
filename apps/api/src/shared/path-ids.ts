import { ProblemSchema, parseIdParam } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';

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

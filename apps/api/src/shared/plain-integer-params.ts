import { Problem } from '@foodshare/server-kit';
import type { FastifyRequest } from 'fastify';
import { idFromPathAsActor } from './path-ids.ts';

/**
 * docs/spec.md §4.1 types these path ids as integers. TypeBox's conversion would also read `1.5`,
 * `0x10`, `1e3` or ` 7` as a number, so that one row had many URLs; only plain digits name a row,
 * and anything else is a 404 like any other path value that names nothing (docs/design.md §3.2).
 * Runs before validation, while the params are still the raw strings.
 */
export function plainIntegerParams(...names: string[]) {
  return async (request: FastifyRequest): Promise<void> => {
    const params = request.params as Record<string, unknown>;
    for (const name of names) {
      const value = params[name];
      if (typeof value !== 'string' || !/^\d+$/.test(value)) throw Problem.notFound();
    }
  };
}

const POSITIVE_ID = /^[1-9][0-9]*$/;

/**
 * Integer path ids that only their `[1-9][0-9]*` form names (a row of docs/spec.md §4.1 that
 * gives that pattern, typed as an integer like the other operations on its path): anything else
 * is a 404, and one beyond 32 bits too, once the caller's account is read (`idFromPathAsActor`),
 * as the handler would have parsed it. Runs before validation, on the raw strings.
 */
export function positiveIdParams(...names: string[]) {
  return async (request: FastifyRequest): Promise<void> => {
    const params = request.params as Record<string, unknown>;
    for (const name of names) {
      const value = params[name];
      if (typeof value !== 'string' || !POSITIVE_ID.test(value)) throw Problem.notFound();
      await idFromPathAsActor(request, value);
    }
  };
}

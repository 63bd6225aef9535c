import { PAGE_DEFAULT_LIMIT, type PageQuery } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import type { FastifyRequest } from 'fastify';

/**
 * `limit` and `offset` of the lists that grow with the data. They share the store log's query
 * schema (PageQuerySchema: limit 1..1000, default 100; offset >= 0, default 0).
 */
export interface Page {
  limit: number;
  offset: number;
}

export const FIRST_PAGE: Readonly<Page> = { limit: PAGE_DEFAULT_LIMIT, offset: 0 };

const INTEGER = /^-?\d+$/;

/**
 * The query schema converts before it checks, and would read `1e3`, `0x10`, ` 7` or `1.5` as
 * integers: limit and offset must be written as integers, or the request is a 400. A
 * preValidation hook, run while the query still holds the raw strings.
 */
export async function requireIntegerPageQuery(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>;
  const errors = ['limit', 'offset']
    .filter((name) => query[name] !== undefined)
    .filter((name) => typeof query[name] !== 'string' || !INTEGER.test(query[name]))
    .map((name) => ({ path: `/querystring/${name}`, message: 'must be a whole number' }));
  if (errors.length > 0) {
    throw new Problem({
      status: 400,
      code: 'VALIDATION_FAILED',
      title: 'Bad Request',
      detail: 'The request does not match the expected shape.',
      errors,
    });
  }
}

/** The page a validated query asks for, the defaults filled in. */
export function pageOf(query: PageQuery): Page {
  return { limit: query.limit ?? FIRST_PAGE.limit, offset: query.offset ?? FIRST_PAGE.offset };
}

import {
  ProblemSchema,
  STORE_LOG_DEFAULT_LIMIT,
  StoreLogParamsSchema,
  StoreLogQuerySchema,
  StoreLogSchema,
} from '@foodshare/schemas';
import { Problem, requireActor } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { parseActionTypes, parseWindow } from './store-log-window.ts';
import { plainIntegerParams } from '../../shared/plain-integer-params.ts';
import { readStoreLog } from './store-log.service.ts';
import { resourceProblems } from '../../shared/path-ids.ts';

const problems = resourceProblems;
const integer = /^-?\d+$/;

const requireDigitStoreId = plainIntegerParams('storeId');

/**
 * The schemas convert before they check, and would read `1e3`, `0x10`, ` 7` or `1.5` as
 * integers. A store id must be digits, or the URL names no store (404, DESIGN.md 3); limit and
 * offset must be written as integers (400).
 */
async function requireIntegerSegments(request: FastifyRequest): Promise<void> {
  await requireDigitStoreId(request);
  const query = request.query as Record<string, unknown>;
  const errors = ['limit', 'offset']
    .filter((name) => query[name] !== undefined)
    .filter((name) => typeof query[name] !== 'string' || !integer.test(query[name]))
    .map((name) => ({ path: `querystring/${name}`, message: 'must be an integer' }));
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

export const storeLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/stores/:storeId/log/:fromDate/:toDate/actions/:storeLogActionIds',
    {
      // A date segment that is no RFC 3339 date-time fails the params schema: 404 like every
      // malformed path value (DESIGN.md 3). A well-formed window that breaks a rule is a 400.
      preValidation: requireIntegerSegments,
      schema: {
        tags: ['stores'],
        summary: 'The log of a store team, newest first (SPEC.md row 8)',
        params: StoreLogParamsSchema,
        querystring: StoreLogQuerySchema,
        response: { 200: StoreLogSchema, 400: ProblemSchema, ...problems },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      const { storeId, fromDate, toDate, storeLogActionIds } = request.params;
      const window = parseWindow(fromDate, toDate, new Date());
      const actionTypes = parseActionTypes(storeLogActionIds);
      const { limit = STORE_LOG_DEFAULT_LIMIT, offset = 0 } = request.query;
      return readStoreLog(request.em, actor, {
        storeId,
        ...window,
        actionTypes,
        limit,
        offset,
      });
    },
  );
};

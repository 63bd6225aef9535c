import {
  ProblemSchema,
  StoreLogParamsSchema,
  PageQuerySchema,
  StoreLogSchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { parseActionTypes, parseWindow } from './store-log-window.ts';
import { plainIntegerParams } from '../../shared/plain-integer-params.ts';
import { readStoreLog } from './store-log.service.ts';
import { callerOf, parsedAsActor } from '../../shared/as-actor.ts';
import { resourceProblems } from '../../shared/path-ids.ts';
import { pageOf, requireIntegerPageQuery } from '../../shared/page-query.ts';

const problems = resourceProblems;

const requireDigitStoreId = plainIntegerParams('storeId');

/**
 * A store id must be digits, or the URL names no store (404, docs/design.md §3.2); limit and offset
 * must be written as integers (400).
 */
async function requireIntegerSegments(request: FastifyRequest): Promise<void> {
  await requireDigitStoreId(request);
  await requireIntegerPageQuery(request);
}

/**
 * The platform's web client asks for the log without the `actions` segment
 * (`/log/{from}/{to}/{ids}`); both paths are the same read, each its own operation.
 */
const STORE_LOG_PATHS = [
  {
    path: '/stores/:storeId/log/:fromDate/:toDate/actions/:storeLogActionIds',
    operationId: 'getStoreLog',
  },
  {
    path: '/stores/:storeId/log/:fromDate/:toDate/:storeLogActionIds',
    operationId: 'getStoreLogShortPath',
  },
] as const;

export const storeLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const { path, operationId } of STORE_LOG_PATHS) {
    app.get(
      path,
      {
        // A date segment that is no RFC 3339 date-time fails the params schema: 404 like every
        // malformed path value (docs/design.md §3.2). A well-formed window that breaks a rule is a
        // 400.
        preValidation: requireIntegerSegments,
        schema: {
          tags: ['stores'],
          operationId,
          summary: 'The log of a store team, newest first (docs/spec.md §4.1, row 8)',
          params: StoreLogParamsSchema,
          querystring: PageQuerySchema,
          response: { 200: StoreLogSchema, 400: ProblemSchema, ...problems },
        },
      },
      // The caller's account is read with the store's facts (shared/as-actor.ts).
      async (request) => {
        const caller = callerOf(request);
        const { storeId, fromDate, toDate, storeLogActionIds } = request.params;
        const { window, actionTypes } = await parsedAsActor(request, () => ({
          window: parseWindow(fromDate, toDate, new Date()),
          actionTypes: parseActionTypes(storeLogActionIds),
        }));
        return readStoreLog(request.em, caller, {
          storeId,
          ...window,
          actionTypes,
          ...pageOf(request.query),
        });
      },
    );
  }
};

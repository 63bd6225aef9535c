import {
  ProblemSchema,
  StoreLogParamsSchema,
  PageQuerySchema,
  StoreLogSchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseActionTypes, parseWindow } from './store-log-window.ts';
import { readStoreLog } from './store-log.service.ts';
import { requireActor, requireSession } from '../../plugins/caller.ts';
import { idFromPath, resourceProblems } from '../../plugins/platform-wire-format.ts';
import { pageOf, requireIntegerPageQuery } from '../../shared/page-query.ts';

const problems = resourceProblems;

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
        onRequest: requireSession,
        preValidation: [requireActor, requireIntegerPageQuery],
        schema: {
          tags: ['stores'],
          operationId,
          summary: 'The log of a store team, newest first (docs/spec.md §4.1, row 8)',
          params: StoreLogParamsSchema,
          querystring: PageQuerySchema,
          response: { 200: StoreLogSchema, 400: ProblemSchema, ...problems },
        },
      },
      async (request) => {
        const { fromDate, toDate, storeLogActionIds } = request.params;
        return readStoreLog(request.em, request.actor, {
          storeId: idFromPath(request, 'storeId'),
          ...parseWindow(fromDate, toDate, new Date()),
          actionTypes: parseActionTypes(storeLogActionIds),
          ...pageOf(request.query),
        });
      },
    );
  }
};

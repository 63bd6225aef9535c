import {
  ChainIdParamsSchema,
  ProblemSchema,
  parseIdParam,
  StoreChainReadSchema,
  StoreChainUpdateBodySchema,
} from '@foodshare/schemas';
import { Problem, requireActor } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readChain, updateChain } from './chains.service.ts';

const problems = { 401: ProblemSchema, 403: ProblemSchema, 404: ProblemSchema };

function idOrNotFound(value: string): number {
  const id = parseIdParam(value);
  if (id === undefined) throw Problem.notFound();
  return id;
}

export const chainsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/chains/:chainId',
    {
      schema: {
        tags: ['store chains'],
        summary: 'A store chain with its store count',
        params: ChainIdParamsSchema,
        response: { 200: StoreChainReadSchema, ...problems },
      },
    },
    async (request) =>
      readChain(request.em, await requireActor(request), idOrNotFound(request.params.chainId)),
  );

  app.patch(
    '/chains/:chainId',
    {
      schema: {
        tags: ['store chains'],
        summary: 'Update a store chain and its key account managers',
        params: ChainIdParamsSchema,
        body: StoreChainUpdateBodySchema,
        response: {
          200: StoreChainReadSchema,
          400: ProblemSchema,
          422: ProblemSchema,
          ...problems,
        },
      },
    },
    async (request) =>
      updateChain(
        request.em,
        await requireActor(request),
        idOrNotFound(request.params.chainId),
        request.body,
      ),
  );
};

import {
  ChainIdParamsSchema,
  ProblemSchema,
  StoreChainKamsSchema,
  StoreChainReadSchema,
  StoreChainUpdateBodySchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { checkChainEditor, readChain, readChainKams, updateChain } from './chains.service.ts';
import { requireActor, requireSession } from '../../plugins/caller.ts';
import { idFromPath, resourceProblems } from '../../plugins/platform-wire-format.ts';

const problems = resourceProblems;

/** preValidation: 404 for an unknown chain, 403 unless the caller may edit it. */
async function requireChainEditor(request: FastifyRequest): Promise<void> {
  await checkChainEditor(request.em, request.actor, idFromPath(request, 'chainId'));
}

export const chainsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/chains/:chainId',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['store chains'],
        operationId: 'getChain',
        summary: 'A store chain with its store count',
        params: ChainIdParamsSchema,
        response: { 200: StoreChainReadSchema, ...problems },
      },
    },
    async (request) => readChain(request.em, request.actor, idFromPath(request, 'chainId')),
  );

  app.get(
    '/chains/:chainId/kams',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['store chains'],
        operationId: 'getChainKams',
        summary: 'The key account managers of a store chain',
        description:
          'As user stubs, by id. For orga, members of the store-chain group (332) and the ' +
          'chain’s KAMs; PATCH /api/chains/{chainId} with `kams` replaces them.',
        params: ChainIdParamsSchema,
        response: { 200: StoreChainKamsSchema, ...problems },
      },
    },
    async (request) => readChainKams(request.em, request.actor, idFromPath(request, 'chainId')),
  );

  app.patch(
    '/chains/:chainId',
    {
      onRequest: requireSession,
      preValidation: [requireActor, requireChainEditor],
      schema: {
        tags: ['store chains'],
        operationId: 'updateChain',
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
    async (request) => {
      const chainId = idFromPath(request, 'chainId');
      return updateChain(request.em, request.actor, chainId, request.body);
    },
  );
};

import {
  ChainIdParamsSchema,
  ProblemSchema,
  StoreChainKamsSchema,
  StoreChainReadSchema,
  StoreChainUpdateBodySchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readChain, readChainKams, updateChain } from './chains.service.ts';
import { callerOf } from '../../shared/as-actor.ts';
import { idFromPathAsActor, resourceProblems } from '../../shared/path-ids.ts';
import { bodyOf } from '../../plugins/wire-conventions.ts';

const problems = resourceProblems;

export const chainsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/chains/:chainId',
    {
      schema: {
        tags: ['store chains'],
        operationId: 'getChain',
        summary: 'A store chain with its store count',
        params: ChainIdParamsSchema,
        response: { 200: StoreChainReadSchema, ...problems },
      },
    },
    // The caller's account is read in the chain's own query (shared/as-actor.ts).
    async (request) => {
      const caller = callerOf(request);
      const chainId = await idFromPathAsActor(request, request.params.chainId);
      return readChain(request.em, caller, chainId);
    },
  );

  app.get(
    '/chains/:chainId/kams',
    {
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
    // The caller's account is read in the chain's own query (shared/as-actor.ts).
    async (request) => {
      const caller = callerOf(request);
      const chainId = await idFromPathAsActor(request, request.params.chainId);
      return readChainKams(request.em, caller, chainId);
    },
  );

  app.patch(
    '/chains/:chainId',
    {
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
    // The caller's account is read with the chain's lock (shared/as-actor.ts).
    async (request) => {
      const caller = callerOf(request);
      const chainId = await idFromPathAsActor(request, request.params.chainId);
      return updateChain(request.em, caller, chainId, bodyOf(request));
    },
  );
};

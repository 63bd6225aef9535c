import { ProblemSchema, SearchIndexSchema } from '@foodshare/schemas';
import { requireActor } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { loadSearchIndex } from './search-index.service.ts';

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/search/index',
    {
      schema: {
        tags: ['search'],
        summary: 'The caller’s own search index',
        description:
          'Everything the logged-in user can search for: their regions and working groups, ' +
          'the stores they are in a team of, the food-share points, forum threads, events and ' +
          'polls of their regions, their conversations, contacts and mailbox mails. Each ' +
          'entry has a `searchString` of `;`-separated terms with ASCII-folded forms. Mail ' +
          '`sentAt` and poll `startAt`/`endAt` are `YYYY-MM-DD HH:MM:SS` in UTC.',
        response: { 200: SearchIndexSchema, 401: ProblemSchema },
      },
    },
    async (request) => loadSearchIndex(request.em, await requireActor(request)),
  );
};

import { ProblemSchema, SearchIndexSchema } from '@foodshare/schemas';
import { requireActor } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { loadSearchIndex } from './search-index.service.ts';
import { revalidateByContent } from '../../shared/conditional-get.ts';

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/search/index',
    {
      schema: {
        tags: ['search'],
        summary: 'The caller’s own search index',
        description:
          'Everything the logged-in user can search for: their regions and working groups ' +
          '(`email` with the platform’s mail host), the stores whose team they are in, the ' +
          'food-share points and forum threads of their regions, the events they accepted or ' +
          'may attend and the polls of their regions (both until 14 days after they ended), ' +
          'their conversations, their confirmed buddies (no last name, phone or mail address ' +
          'of anyone) and their mailbox mails. Each entry has a `searchString` of ' +
          '`;`-separated terms with ASCII-folded forms. Mail `sentAt` and poll ' +
          '`startAt`/`endAt` are `YYYY-MM-DD HH:MM:SS` in UTC. The answer carries a strong ' +
          '`ETag`; a request whose `If-None-Match` names the current one gets 304 without a body.',
        response: {
          200: SearchIndexSchema,
          304: Type.Null({ description: 'Unchanged since the ETag the client holds' }),
          401: ProblemSchema,
        },
      },
      onSend: revalidateByContent,
    },
    async (request) =>
      loadSearchIndex(request.em, await requireActor(request), app.config.MAILBOX_HOST),
  );
};

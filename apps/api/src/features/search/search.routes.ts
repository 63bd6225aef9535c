import { ProblemSchema, SearchIndexSchema } from '@foodshare/schemas';
import { provideActor, requireActor as readActor } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerIdOf, requireSession } from '../../plugins/caller.ts';
import { Type } from 'typebox';
import { builtFor, SearchIndexCache } from './search-index-cache.ts';
import { currentSearchIndexVersion, loadSearchIndex } from './search-index.service.ts';
import { SEARCH_INDEX_STATEMENT_NAME } from './search-index.sql.ts';
import { contentEtag, sendRevalidated } from '../../shared/conditional-get.ts';

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const cache = new SearchIndexCache(app.kv, SEARCH_INDEX_STATEMENT_NAME);

  app.get(
    '/search/index',
    {
      // The session only: the account is read below, with the index's version row.
      onRequest: requireSession,
      schema: {
        tags: ['search'],
        operationId: 'getSearchIndex',
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
    },
    // A user's index is kept with the version of the data it was built from; while that version
    // stands, a repeat costs one Redis read and one row, which also reads the account as
    // requireActor would (docs/design.md §3.12), so a kept index is never sent to an account
    // that is no longer active, and a stale one is rebuilt with no further look-up.
    async (request, reply) => {
      const userId = callerIdOf(request);
      const cached = await cache.get(userId);
      const current = cached ? await currentSearchIndexVersion(request.em, userId) : null;
      // The version row read the account: readActor answers from it (401 when inactive).
      if (current) provideActor(request, current.actor);
      const actor = await readActor(request);
      if (cached && cached.version === current?.version && cached.builtFor === builtFor(actor)) {
        return sendRevalidated(request, reply, cached);
      }
      const built = await loadSearchIndex(request.em, actor, app.config.MAILBOX_HOST);
      // The route's own serializer, as for any 200 of it: the cached text is what it would send.
      const body = reply.serialize(built.index) as string;
      const entry = {
        version: built.version,
        builtFor: builtFor(actor),
        etag: contentEtag(body),
        body,
      };
      await cache.put(userId, entry);
      return sendRevalidated(request, reply, entry);
    },
  );
};

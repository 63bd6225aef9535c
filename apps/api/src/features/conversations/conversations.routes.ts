import {
  ConversationIdParamsSchema,
  ConversationMessageListSchema,
  ConversationMessagesQuerySchema,
  ConversationReadStateSchema,
  ConversationSchema,
  MessageBodySchema,
  MessageSchema,
  ProblemSchema,
  ReadStatusQuerySchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getConversation, setReadStatus } from './conversations.service.ts';
import { listMessages, sendMessage } from './messages.service.ts';
import { callerOf } from '../../shared/as-actor.ts';
import { idFromPathAsActor, resourceProblems } from '../../shared/path-ids.ts';
import { bodyOf } from '../../plugins/wire-conventions.ts';

const tags = ['conversations'];

const readProblems = resourceProblems;
const problems = { 400: ProblemSchema, ...readProblems };

export const conversationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/conversations/:conversationId/messages',
    {
      schema: {
        tags,
        operationId: 'sendMessage',
        summary: 'Send a message (members only); a repeated clientKey answers the stored message',
        params: ConversationIdParamsSchema,
        body: MessageBodySchema,
        response: { 200: MessageSchema, ...problems },
      },
    },
    // The caller's account is read with the conversation's lock (shared/as-actor.ts).
    async (request) => {
      const caller = callerOf(request);
      const conversationId = await idFromPathAsActor(request, request.params.conversationId);
      return sendMessage(request.em, caller, conversationId, bodyOf(request));
    },
  );

  app.get(
    '/conversations/:conversationId/messages',
    {
      schema: {
        tags,
        operationId: 'getConversationMessages',
        summary: "A conversation's messages, newest first (members only)",
        params: ConversationIdParamsSchema,
        querystring: ConversationMessagesQuerySchema,
        response: { 200: ConversationMessageListSchema, ...problems },
      },
    },
    // The caller's account is read in the conversation's own query (shared/as-actor.ts).
    async (request) => {
      const caller = callerOf(request);
      const conversationId = await idFromPathAsActor(request, request.params.conversationId);
      return listMessages(request.em, caller, conversationId, request.query);
    },
  );

  app.post(
    '/conversations/:conversationId/readStatus',
    {
      schema: {
        tags,
        operationId: 'setConversationReadStatus',
        summary:
          'Mark the conversation read (read=1) or unread (anything else, or no read) for yourself',
        params: ConversationIdParamsSchema,
        querystring: ReadStatusQuerySchema,
        response: { 200: ConversationReadStateSchema, ...problems },
      },
    },
    // The caller's account is read in the membership's query (shared/as-actor.ts).
    async (request) => {
      const caller = callerOf(request);
      const conversationId = await idFromPathAsActor(request, request.params.conversationId);
      // As on the reference platform: only `1` reads; a missing or other value is unread.
      const read = request.query.read === '1';
      return setReadStatus(request.em, caller, conversationId, read);
    },
  );

  app.get(
    '/conversations/:conversationId',
    {
      schema: {
        tags,
        operationId: 'getConversation',
        summary: 'A conversation with its members and your own read state (members only)',
        params: ConversationIdParamsSchema,
        response: { 200: ConversationSchema, ...readProblems },
      },
    },
    // The caller's account is read in the conversation's own query (shared/as-actor.ts).
    async (request) => {
      const caller = callerOf(request);
      const conversationId = await idFromPathAsActor(request, request.params.conversationId);
      return getConversation(request.em, caller, conversationId);
    },
  );
};

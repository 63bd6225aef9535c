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
import type { FastifyRequest } from 'fastify';
import { getConversation, setReadStatus } from './conversations.service.ts';
import { checkMessageSender, listMessages, sendMessage } from './messages.service.ts';
import { requireActor, requireSession } from '../../plugins/caller.ts';
import { idFromPath, resourceProblems } from '../../plugins/platform-wire-format.ts';

const tags = ['conversations'];

const readProblems = resourceProblems;
const problems = { 400: ProblemSchema, ...readProblems };

/** preValidation: 403 unless the caller is a member of the conversation. */
async function requireMessageSender(request: FastifyRequest): Promise<void> {
  await checkMessageSender(request.em, request.actor, idFromPath(request, 'conversationId'));
}

export const conversationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/conversations/:conversationId/messages',
    {
      onRequest: requireSession,
      preValidation: [requireActor, requireMessageSender],
      schema: {
        tags,
        operationId: 'sendMessage',
        summary: 'Send a message (members only); a repeated clientKey answers the stored message',
        params: ConversationIdParamsSchema,
        body: MessageBodySchema,
        response: { 200: MessageSchema, ...problems },
      },
    },
    async (request) => {
      const conversationId = idFromPath(request, 'conversationId');
      return sendMessage(request.em, request.actor, conversationId, request.body);
    },
  );

  app.get(
    '/conversations/:conversationId/messages',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags,
        operationId: 'getConversationMessages',
        summary: "A conversation's messages, newest first (members only)",
        params: ConversationIdParamsSchema,
        querystring: ConversationMessagesQuerySchema,
        response: { 200: ConversationMessageListSchema, ...problems },
      },
    },
    async (request) => {
      const conversationId = idFromPath(request, 'conversationId');
      return listMessages(request.em, request.actor, conversationId, request.query);
    },
  );

  app.post(
    '/conversations/:conversationId/readStatus',
    {
      onRequest: requireSession,
      preValidation: requireActor,
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
    async (request) => {
      const conversationId = idFromPath(request, 'conversationId');
      // As on the reference platform: only `1` reads; a missing or other value is unread.
      const read = request.query.read === '1';
      return setReadStatus(request.em, request.actor, conversationId, read);
    },
  );

  app.get(
    '/conversations/:conversationId',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags,
        operationId: 'getConversation',
        summary: 'A conversation with its members and your own read state (members only)',
        params: ConversationIdParamsSchema,
        response: { 200: ConversationSchema, ...readProblems },
      },
    },
    async (request) => {
      const conversationId = idFromPath(request, 'conversationId');
      return getConversation(request.em, request.actor, conversationId);
    },
  );
};

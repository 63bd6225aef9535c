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
import { requireActor } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getConversation, setReadStatus } from './conversations.service.ts';
import { listMessages, sendMessage } from './messages.service.ts';
import { idFromPath, resourceProblems } from '../../shared/path-ids.ts';
import { bodyOf } from '../../plugins/wire-conventions.ts';

const tags = ['conversations'];

const readProblems = resourceProblems;
const problems = { 400: ProblemSchema, ...readProblems };

/** `\d+` allows leading zeros; a value beyond 32 bits names no conversation (DESIGN.md 3). */
const conversationIdOf = (value: string) =>
  idFromPath(value, 'There is no conversation with this id.');

export const conversationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/conversations/:conversationId/messages',
    {
      schema: {
        tags,
        summary: 'Send a message (members only); a repeated clientKey returns the stored one',
        params: ConversationIdParamsSchema,
        body: MessageBodySchema,
        response: { 200: MessageSchema, ...problems, 409: ProblemSchema },
      },
    },
    async (request) => {
      const conversationId = conversationIdOf(request.params.conversationId);
      const actor = await requireActor(request);
      const sent = await sendMessage(request.em, actor, conversationId, bodyOf(request));
      return sent.message;
    },
  );

  app.get(
    '/conversations/:conversationId/messages',
    {
      schema: {
        tags,
        summary: "A conversation's messages, newest first (members only)",
        params: ConversationIdParamsSchema,
        querystring: ConversationMessagesQuerySchema,
        response: { 200: ConversationMessageListSchema, ...problems },
      },
    },
    async (request) => {
      const conversationId = conversationIdOf(request.params.conversationId);
      const actor = await requireActor(request);
      return listMessages(request.em, actor, conversationId, request.query);
    },
  );

  app.post(
    '/conversations/:conversationId/readStatus',
    {
      schema: {
        tags,
        summary: 'Mark the conversation read (read=1, the default) or unread (read=0) for yourself',
        params: ConversationIdParamsSchema,
        querystring: ReadStatusQuerySchema,
        response: { 200: ConversationReadStateSchema, ...problems },
      },
    },
    async (request) => {
      const conversationId = conversationIdOf(request.params.conversationId);
      const actor = await requireActor(request);
      // SPEC.md gives `read` the default null; opening a conversation is what marks it read.
      const read = request.query.read !== '0';
      return setReadStatus(request.em, actor, conversationId, read);
    },
  );

  app.get(
    '/conversations/:conversationId',
    {
      schema: {
        tags,
        summary: 'A conversation with its members and your own read state (members only)',
        params: ConversationIdParamsSchema,
        response: { 200: ConversationSchema, ...readProblems },
      },
    },
    async (request) => {
      const conversationId = conversationIdOf(request.params.conversationId);
      return getConversation(request.em, await requireActor(request), conversationId);
    },
  );
};

import {
  type Actor,
  type EntityManager,
  maySendMessage,
  mayReadConversation,
  runSql,
} from '@foodshare/domain';
import {
  type ConversationMessageList,
  type Message,
  type MessageBody,
  trimSpace,
} from '@foodshare/schemas';
import { loadConversationFacts, notAMember } from './conversation-access.ts';
import {
  messageOf,
  messagesOf,
  messagesQuery,
  sendMessageQuery,
  storedMessageQuery,
} from './conversations.sql.ts';

const DEFAULT_MESSAGES_LIMIT = 50;

/**
 * The route's permission check, before the body is validated: 403 unless the caller is a
 * member. `sendMessage` checks again under the conversation's lock.
 */
export async function checkMessageSender(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
): Promise<void> {
  const facts = await loadConversationFacts(em, actor, conversationId);
  if (!maySendMessage(actor, facts)) throw notAMember();
}

/**
 * Stores the message and marks the conversation unread for every other member and read for
 * the sender, in one statement (`sendMessageQuery`): a failure leaves neither a message nobody
 * is told about nor an unread mark without a message. A `clientKey` this sender used in this
 * conversation before names a message already stored: that message is the answer, whatever body
 * came this time (the client is retrying a send whose answer it lost).
 */
export async function sendMessage(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
  input: MessageBody,
): Promise<Message> {
  const clientKey = input.clientKey ?? null;
  const query = sendMessageQuery(conversationId, actor.id, trimSpace(input.body), clientKey);
  const [sent] = await runSql(em, query);
  if (!sent || !maySendMessage(actor, { isConversationMember: sent.is_member })) {
    throw notAMember();
  }
  if (sent.id !== null) return messageOf(sent);
  // A send with the same key was stored while this one waited for the lock: it is the answer.
  const [stored] = await runSql(em, storedMessageQuery(conversationId, actor.id, clientKey!));
  return messageOf(stored!);
}

/**
 * Newest first, with the authors, in one query after the membership check, so that a refused
 * caller never costs the list.
 */
export async function listMessages(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
  page: { limit?: number | undefined; offset?: number | undefined },
): Promise<ConversationMessageList> {
  const facts = await loadConversationFacts(em, actor, conversationId);
  if (!mayReadConversation(actor, facts)) throw notAMember();
  const rows = await runSql(
    em,
    messagesQuery(conversationId, {
      limit: page.limit ?? DEFAULT_MESSAGES_LIMIT,
      offset: page.offset ?? 0,
    }),
  );
  return messagesOf(rows);
}

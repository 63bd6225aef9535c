import {
  type Actor,
  type EntityManager,
  mayMarkConversationRead,
  mayReadConversation,
  runSql,
} from '@foodshare/domain';
import type { Conversation, ConversationReadState } from '@foodshare/schemas';
import { loadConversationFacts, notAMember } from './conversation-access.ts';
import {
  conversationOf,
  conversationQuery,
  readStateOf,
  setReadStatusQuery,
} from './conversations.sql.ts';

/** One query: the conversation, its members, and the caller's own read state. */
export async function getConversation(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
): Promise<Conversation> {
  const query = conversationQuery(conversationId, actor.id);
  const [row] = await runSql(em, query);
  // An unknown conversation has no members: the same 403, so ids reveal nothing.
  if (!row || !mayReadConversation(actor, { isConversationMember: row.is_member })) {
    throw notAMember();
  }
  return conversationOf(row);
}

/** Marks the conversation read (`read`) or unread for the caller alone. */
export async function setReadStatus(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
  read: boolean,
): Promise<ConversationReadState> {
  const facts = await loadConversationFacts(em, actor, conversationId);
  if (!mayMarkConversationRead(actor, facts)) throw notAMember();
  const [row] = await runSql(em, setReadStatusQuery(conversationId, actor.id, read));
  // Left the conversation between the two statements.
  if (!row) throw notAMember();
  return readStateOf(conversationId, row);
}

import {
  type EntityManager,
  mayMarkConversationRead,
  mayReadConversation,
} from '@foodshare/domain';
import type { Conversation, ConversationReadState } from '@foodshare/schemas';
import { loadConversationFactsAsActor, notAMember } from './conversation-access.ts';
import {
  conversationOf,
  conversationQuery,
  readStateOf,
  setReadStatusQuery,
} from './conversations.sql.ts';
import { type Caller, runSqlAsActor } from '../../shared/as-actor.ts';
import { runSql } from '../../shared/sql.ts';

/** One query: the caller's account, the conversation, its members, and the own read state. */
export async function getConversation(
  em: EntityManager,
  caller: Caller,
  conversationId: number,
): Promise<Conversation> {
  const query = conversationQuery(conversationId, caller.userId);
  const {
    actor,
    rows: [row],
  } = await runSqlAsActor(em, caller, query);
  // An unknown conversation has no members: the same 403, so ids reveal nothing.
  if (!row || !mayReadConversation(actor, { isConversationMember: row.is_member })) {
    throw notAMember();
  }
  return conversationOf(row);
}

/** Marks the conversation read (`read`) or unread for the caller alone. */
export async function setReadStatus(
  em: EntityManager,
  caller: Caller,
  conversationId: number,
  read: boolean,
): Promise<ConversationReadState> {
  const { actor, facts } = await loadConversationFactsAsActor(em, caller, conversationId);
  if (!mayMarkConversationRead(actor, facts)) throw notAMember();
  const [row] = await runSql(em, setReadStatusQuery(conversationId, actor.id, read));
  // Left the conversation between the two statements.
  if (!row) throw notAMember();
  return readStateOf(conversationId, row);
}

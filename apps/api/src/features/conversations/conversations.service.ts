import {
  type Actor,
  type EntityManager,
  mayMarkConversationRead,
  mayReadConversation,
} from '@foodshare/domain';
import type { Conversation, ConversationReadState, UserStub } from '@foodshare/schemas';
import { loadConversationFacts, notAMember } from './conversation-access.ts';
import { isoTimestamp, userStubJson } from '../../shared/sql.ts';

interface ConversationRow {
  id: number;
  name: string | null;
  created_at: string;
  is_member: boolean;
  unread: boolean | null;
  last_read_at: string | null;
  members: UserStub[] | null;
}

/** One query: the conversation, its members, and the caller's own read state. */
export async function getConversation(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
): Promise<Conversation> {
  const rows = await em.execute<ConversationRow[]>(
    `select c.id, c.name, c.created_at, me.user_id is not null as is_member,
            me.unread, me.last_read_at,
            case when me.user_id is null then null else (
              select json_agg(${userStubJson('u')} order by m.joined_at, u.id)
                from conversation_members m join users u on u.id = m.user_id
               where m.conversation_id = c.id) end as members
       from conversations c
       left join conversation_members me on me.conversation_id = c.id and me.user_id = ?
      where c.id = ?`,
    [actor.id, conversationId],
  );
  const row = rows[0];
  // An unknown conversation has no members: the same 403, so ids reveal nothing.
  if (!row || !mayReadConversation(actor, { isConversationMember: row.is_member })) {
    throw notAMember();
  }
  return {
    id: row.id,
    name: row.name,
    createdAt: isoTimestamp(row.created_at),
    members: row.members ?? [],
    hasUnread: row.unread ?? false,
    lastReadAt: row.last_read_at === null ? null : isoTimestamp(row.last_read_at),
  };
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
  const rows = await em.execute<{ unread: boolean; last_read_at: string | null }[]>(
    `update conversation_members
        set unread = not ?,
            last_read_at = case when ? then now() else last_read_at end
      where conversation_id = ? and user_id = ?
      returning unread, last_read_at`,
    [read, read, conversationId, actor.id],
  );
  const row = rows[0];
  // Left the conversation between the two statements.
  if (!row) throw notAMember();
  return {
    conversationId,
    hasUnread: row.unread,
    lastReadAt: row.last_read_at === null ? null : isoTimestamp(row.last_read_at),
  };
}

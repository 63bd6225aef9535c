import type { Actor, ConversationFacts, EntityManager } from '@foodshare/domain';
import { Problem } from '@foodshare/server-kit';

/** 404 for an unknown conversation; otherwise what the rules need to know about the caller. */
export async function loadConversationFacts(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
): Promise<ConversationFacts> {
  const rows = await em.execute<{ is_member: boolean }[]>(
    `select exists (select 1 from conversation_members m
                     where m.conversation_id = c.id and m.user_id = ?) as is_member
       from conversations c
      where c.id = ?`,
    [actor.id, conversationId],
  );
  const row = rows[0];
  if (!row) throw Problem.notFound('There is no conversation with this id.');
  return { isConversationMember: row.is_member };
}

export const notAMember = () =>
  Problem.forbidden(
    'CONVERSATION_MEMBERS_ONLY',
    'Only members of a conversation read or write in it.',
  );

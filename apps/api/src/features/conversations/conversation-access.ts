import type { Actor, ConversationFacts, EntityManager } from '@foodshare/domain';
import { Problem } from '@foodshare/server-kit';

/**
 * What the rules need to know about the caller. A conversation that does not exist has no
 * members: the caller gets the same 403 as for someone else's conversation, so nobody learns
 * which conversation ids exist.
 */
export async function loadConversationFacts(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
): Promise<ConversationFacts> {
  const rows = await em.execute<{ is_member: boolean }[]>(
    `select exists (select 1 from conversation_members
                     where conversation_id = ? and user_id = ?) as is_member`,
    [conversationId, actor.id],
  );
  return { isConversationMember: rows[0]?.is_member ?? false };
}

/**
 * Inside a send's transaction: locks the conversation row against other senders, then answers
 * as loadConversationFacts. Every send to one conversation updates the same member rows; taking
 * this lock first makes them queue instead of locking those rows in different orders and
 * deadlocking each other. `for no key update` leaves the foreign-key checks of other writers
 * (their `for key share`) unblocked.
 */
export async function lockConversationForSend(
  tx: EntityManager,
  actor: Actor,
  conversationId: number,
): Promise<ConversationFacts> {
  const rows = await tx.execute<{ is_member: boolean }[]>(
    `select exists (select 1 from conversation_members m
                     where m.conversation_id = c.id and m.user_id = ?) as is_member
       from conversations c
      where c.id = ?
        for no key update of c`,
    [actor.id, conversationId],
  );
  return { isConversationMember: rows[0]?.is_member ?? false };
}

export const notAMember = () =>
  Problem.forbidden(
    'CONVERSATION_MEMBERS_ONLY',
    'Only members of a conversation read or write in it.',
  );

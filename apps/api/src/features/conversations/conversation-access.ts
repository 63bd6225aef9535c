import { runSql } from '@foodshare/domain';
import type { Actor, ConversationFacts, EntityManager } from '@foodshare/domain';
import { Problem } from '@foodshare/server-kit';
import { membershipQuery } from './conversations.sql.ts';

/**
 * What the rules need to know about the caller. A conversation that does not exist has no members: the caller gets the same 403 as
 * for someone else's conversation, so nobody learns which conversation ids exist.
 */
export async function loadConversationFacts(
  em: EntityManager,
  actor: Actor,
  conversationId: number,
): Promise<ConversationFacts> {
  const query = membershipQuery(conversationId, actor.id);
  const rows = await runSql(em, query);
  return { isConversationMember: rows[0]?.is_member ?? false };
}

export const notAMember = () =>
  Problem.forbidden(
    'CONVERSATION_MEMBERS_ONLY',
    'Only members of a conversation read or write in it.',
  );

import type { Actor, ConversationFacts, EntityManager } from '@foodshare/domain';
import { Problem } from '@foodshare/server-kit';
import { lockedMembershipQuery, membershipQuery } from './conversations.sql.ts';
import { type Caller, runSqlAsActor } from '../../shared/as-actor.ts';

/**
 * What the rules need to know about the caller, in the statement that reads the caller's
 * account. A conversation that does not exist has no members: the caller gets the same 403 as
 * for someone else's conversation, so nobody learns which conversation ids exist.
 */
export async function loadConversationFactsAsActor(
  em: EntityManager,
  caller: Caller,
  conversationId: number,
): Promise<{ actor: Actor; facts: ConversationFacts }> {
  const query = membershipQuery(conversationId, caller.userId);
  const { actor, rows } = await runSqlAsActor(em, caller, query);
  return { actor, facts: { isConversationMember: rows[0]?.is_member ?? false } };
}

/**
 * Inside a send's transaction: locks the conversation row against other senders, then answers
 * as loadConversationFactsAsActor, in the same statement. Every send to one conversation
 * updates the same member rows; taking this lock first makes them queue instead of locking
 * those rows in different orders and deadlocking each other.
 */
export async function loadLockedConversationFactsAsActor(
  tx: EntityManager,
  caller: Caller,
  conversationId: number,
): Promise<{ actor: Actor; facts: ConversationFacts }> {
  const query = lockedMembershipQuery(conversationId, caller.userId);
  const { actor, rows } = await runSqlAsActor(tx, caller, query);
  return { actor, facts: { isConversationMember: rows[0]?.is_member ?? false } };
}

export const notAMember = () =>
  Problem.forbidden(
    'CONVERSATION_MEMBERS_ONLY',
    'Only members of a conversation read or write in it.',
  );

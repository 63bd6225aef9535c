import type { Actor } from './actor.ts';

export interface ConversationFacts {
  readonly isConversationMember: boolean;
}

// Private conversations: no role, not even orga, reads or writes into a conversation it is not part of.
export function maySendMessage(_actor: Actor, facts: ConversationFacts): boolean {
  return facts.isConversationMember;
}

/** The read status is the caller's own; only a member has one. */
export function mayMarkConversationRead(_actor: Actor, facts: ConversationFacts): boolean {
  return facts.isConversationMember;
}

/** Members read their conversation and who is in it; nobody else, whatever their role. */
export function mayReadConversation(_actor: Actor, facts: ConversationFacts): boolean {
  return facts.isConversationMember;
}

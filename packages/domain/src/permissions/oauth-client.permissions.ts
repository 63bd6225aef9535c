import { type Actor, isOrga } from './actor.ts';

export interface OAuthClientAdminFacts {
  /** Member of the OAuth client administration working group (6704). */
  readonly isOAuthClientAdminGroupMember: boolean;
}

/**
 * A client decides which third parties can read users' data, so both conditions hold: the
 * actor is organisation staff and belongs to the group entrusted with OAuth clients.
 */
export function mayAdministerOAuthClients(actor: Actor, facts: OAuthClientAdminFacts): boolean {
  return isOrga(actor) && facts.isOAuthClientAdminGroupMember;
}

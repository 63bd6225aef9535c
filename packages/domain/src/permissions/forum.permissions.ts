import { type Actor, isOrga } from './actor.ts';

export interface ForumModerationFacts {
  /**
   * The actor holds the moderation duty of the thread's region: admin of the region's
   * moderation (function 10) working group, or its ambassador when it has none
   * (see `holdsRegionDuty`).
   */
  readonly holdsModerationDuty: boolean;
}

export interface ForumHideFacts extends ForumModerationFacts {
  /** The region option "allow hiding in forum". */
  readonly allowHidingInForum: boolean;
}

export function mayModerateForum(actor: Actor, facts: ForumModerationFacts): boolean {
  return isOrga(actor) || facts.holdsModerationDuty;
}

/** Hiding needs the region to allow it, for organisation staff as well. */
export function mayHideForumPost(actor: Actor, facts: ForumHideFacts): boolean {
  return facts.allowHidingInForum && mayModerateForum(actor, facts);
}

/** Restoring never depends on the region option, so a post hidden earlier can always come back. */
export function mayRestoreForumPost(actor: Actor, facts: ForumModerationFacts): boolean {
  return mayModerateForum(actor, facts);
}

/** A hidden post keeps its text for moderators; everybody else sees only the hide record. */
export function maySeeHiddenForumPostBody(actor: Actor, facts: ForumModerationFacts): boolean {
  return mayModerateForum(actor, facts);
}

export interface ForumReadFacts extends ForumModerationFacts {
  /** The thread is in the region's ambassador forum rather than its general one. */
  readonly isAmbassadorForum: boolean;
  /** An active member of the thread's region. */
  readonly isRegionMember: boolean;
  /** An ambassador (admin) of the thread's region. */
  readonly isRegionAmbassador: boolean;
}

/**
 * A region's forum is for its members, its ambassador forum for its ambassadors. Moderators
 * read both forums of the region they moderate (they cannot judge a post they cannot read),
 * and organisation staff read every forum.
 */
export function mayReadForumThread(actor: Actor, facts: ForumReadFacts): boolean {
  if (mayModerateForum(actor, facts)) return true;
  if (facts.isAmbassadorForum) return facts.isRegionAmbassador;
  return facts.isRegionMember || facts.isRegionAmbassador;
}

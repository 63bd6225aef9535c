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

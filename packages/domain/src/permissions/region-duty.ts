import type { Actor } from './actor.ts';

/**
 * Who may hold a duty of a region (moderation, report, stores coordination, ...). A region
 * delegates the duty to the working group under it that carries the matching function; only
 * when it has no such group do its ambassadors hold the duty. A repository loads both sets in
 * one query; rules take the resulting boolean (`holdsModerationDuty`, ...), never the sets.
 */
export interface RegionDutyHolders {
  /** Admins of the working group carrying the duty's function, or null when there is none. */
  readonly delegateAdminIds: ReadonlySet<number> | null;
  /** The region's ambassadors (the admins of the unit). */
  readonly ambassadorIds: ReadonlySet<number>;
}

export function holdsRegionDuty(actor: Actor, holders: RegionDutyHolders): boolean {
  // A delegate group takes the duty away from the ambassadors, even when it has no admins.
  if (holders.delegateAdminIds !== null) return holders.delegateAdminIds.has(actor.id);
  return holders.ambassadorIds.has(actor.id);
}

import { type Actor, isOrga } from './actor.ts';

export interface UserReportsFacts {
  readonly reportedUserId: number;
}

/**
 * Reports name their reporters; the reported person must never learn who reported them, so
 * even organisation staff cannot read the reports about themselves.
 */
export function mayReadUserReports(actor: Actor, facts: UserReportsFacts): boolean {
  return isOrga(actor) && actor.id !== facts.reportedUserId;
}

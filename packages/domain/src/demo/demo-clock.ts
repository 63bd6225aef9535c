export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/**
 * Moments relative to the anchor of the demo data, so that logs, messages and events keep
 * their distance to `now` whenever the data is loaded.
 */
export interface DemoClock {
  ago: (days: number, hours?: number) => Date;
  ahead: (days: number, hours?: number) => Date;
}

export function demoClock(now: Date): DemoClock {
  return {
    ago: (days, hours = 0) => new Date(now.getTime() - days * DAY - hours * HOUR),
    ahead: (days, hours = 0) => new Date(now.getTime() + days * DAY + hours * HOUR),
  };
}

import { StoreLogAction } from '@foodshare/domain';
import { Problem } from '@foodshare/server-kit';

/** How far back the log may be read (docs/domain.md §3.8). */
export const STORE_LOG_MAX_AGE_MONTHS = 6;

const KNOWN_ACTIONS = new Set<number>(Object.values(StoreLogAction));

/**
 * The same day of the month `months` calendar months earlier, in UTC, clamped to the end of a
 * shorter month (31 August minus 6 months is 28 or 29 February, not 3 March).
 */
export function monthsBefore(now: Date, months: number): Date {
  const day = now.getUTCDate();
  const result = new Date(now);
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() - months);
  const lastDay = new Date(
    Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0),
  ).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/**
 * The action types of a `1,3,20` segment (its shape is checked by the params pattern), once
 * each, ascending. An id that names no action type is a 400: a filter on it would silently
 * match nothing.
 */
export function parseActionTypes(segment: string): StoreLogAction[] {
  const ids = new Set<number>();
  for (const part of segment.split(',')) {
    const id = Number(part);
    if (!KNOWN_ACTIONS.has(id)) {
      throw Problem.badRequest(
        'STORE_LOG_UNKNOWN_ACTION',
        `${part} is not a store log action type (1 to 20).`,
      );
    }
    ids.add(id);
  }
  return [...ids].sort((a, b) => a - b) as StoreLogAction[];
}

export interface StoreLogWindow {
  from: Date;
  to: Date;
}

/**
 * The window of two RFC 3339 date-times (their shape is checked by the params pattern):
 * `from` not after `to`, and `from` at most six months back.
 */
export function parseWindow(fromDate: string, toDate: string, now: Date): StoreLogWindow {
  const from = new Date(fromDate);
  const to = new Date(toDate);
  // The pattern admits only instants a Date holds; this guards a pattern that drifts.
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) {
    throw Problem.badRequest('STORE_LOG_INVALID_DATE', 'The dates must be RFC 3339 date-times.');
  }
  if (from > to) {
    throw Problem.badRequest('STORE_LOG_WINDOW_REVERSED', 'fromDate must not be after toDate.');
  }
  if (from < monthsBefore(now, STORE_LOG_MAX_AGE_MONTHS)) {
    throw Problem.badRequest(
      'STORE_LOG_WINDOW_TOO_OLD',
      `The store log can be read back ${STORE_LOG_MAX_AGE_MONTHS} months at most.`,
    );
  }
  return { from, to };
}

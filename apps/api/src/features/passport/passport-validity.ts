/**
 * A passport is valid for three years from the day its holder last passed a quiz: the card
 * vouches for that knowledge, so reprinting it must not extend it.
 */
export const PASSPORT_VALID_YEARS = 3;

/** The platform's calendar: "today" is the German date, whatever the server's zone. */
export const PASSPORT_TIME_ZONE = 'Europe/Berlin';

export interface PassportValidity {
  /** dd.mm.yyyy */
  validFrom: string;
  /** dd.mm.yyyy */
  validUntil: string;
}

// One formatter per time zone: making an Intl.DateTimeFormat costs far more than formatting
// with it (docs/benchmarks.md §3).
const calendarFormats = new Map<string, Intl.DateTimeFormat>();

function calendarFormat(timeZone: string): Intl.DateTimeFormat {
  let format = calendarFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    });
    calendarFormats.set(timeZone, format);
  }
  return format;
}

function calendarDate(
  moment: Date,
  timeZone: string,
): { year: number; month: number; day: number } {
  const parts = calendarFormat(timeZone).formatToParts(moment);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((entry) => entry.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

function germanDate(year: number, month: number, day: number): string {
  return `${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}.${year}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * From the calendar day of `since` to the same day three years on (29 February becomes the
 * 28th).
 */
export function passportValidity(since: Date, timeZone = PASSPORT_TIME_ZONE): PassportValidity {
  const { year, month, day } = calendarDate(since, timeZone);
  const untilYear = year + PASSPORT_VALID_YEARS;
  const untilDay = Math.min(day, daysInMonth(untilYear, month));
  return {
    validFrom: germanDate(year, month, day),
    validUntil: germanDate(untilYear, month, untilDay),
  };
}

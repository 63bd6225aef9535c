// What the features' SQL files share (docs/design.md §3.10): the query type that carries its row
// type and the one way to run it (both from @foodshare/domain), and the fragments every response
// builds the same way.

export interface UserStubOptions {
  /** `name` as first and last name, for views whose readers must tell people apart. */
  fullName?: boolean;
  /** Further keys from columns of the same users row, as `{ jsonKey: 'column' }`. */
  columns?: Readonly<Record<string, string>>;
}

/**
 * The user stub of docs/spec.md §2.1 built in SQL from the users row aliased `alias`, null without
 * one. Its `name` is the first name unless `fullName` (a store's applicants); `columns` adds the
 * keys a wider view of a user carries (the report user of docs/spec.md §2.2: `mail`, `lastName`).
 * Aliases, keys and columns are names written in the code, never input.
 */
export function userStubJson(
  alias: string,
  { fullName = false, columns = {} }: UserStubOptions = {},
): string {
  const name = fullName
    ? `${alias}.first_name || ' ' || ${alias}.last_name`
    : `${alias}.first_name`;
  const extra = Object.entries(columns).map(
    ([key, column]) => `,\n    '${key}', ${alias}.${column}`,
  );
  return `case when ${alias}.id is null then null else json_build_object(
    'id', ${alias}.id,
    'name', ${name},
    'avatar', case when ${alias}.avatar_upload_id is null then null
                   else '/api/uploads/' || ${alias}.avatar_upload_id end,
    'isSleeping', ${alias}.sleeping${extra.join('')}) end`;
}

// PostgreSQL's text form of a timestamptz in a UTC session: `2026-11-26 16:55:15.184123+00`.
const UTC_TEXT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/**
 * A timestamptz as the driver hands it over (Date or text), as RFC 3339 with milliseconds
 * (docs/design.md §3.8). The UTC text form is rewritten without parsing a date, because a list
 * answers two or three timestamps a row (docs/benchmarks.md §3). Any other form (another
 * session time zone, a year beyond four digits) goes through Date. (Date reads the years 1 to
 * 99 of this form as 19xx or 20xx; the rewrite keeps them, and the platform stores no such
 * dates.)
 */
export function isoTimestamp(value: Date | string): string {
  const utc = typeof value === 'string' ? UTC_TEXT.exec(value) : null;
  if (!utc) return new Date(value).toISOString();
  // Date keeps whole milliseconds: the rest of the fraction is cut, not rounded.
  return `${utc[1]}T${utc[2]}.${(utc[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
}

// SQL fragments the features share, so that every response builds a user stub the same way.

/**
 * The user stub of docs/spec.md §2.1 built in SQL from the users row aliased `alias`, null without
 * one. Its `name` is the first name; `fullName` makes it first and last name, for the few views
 * whose readers must tell people apart (a store's applicants).
 */
export function userStubJson(alias: string, { fullName = false } = {}): string {
  const name = fullName
    ? `${alias}.first_name || ' ' || ${alias}.last_name`
    : `${alias}.first_name`;
  return `case when ${alias}.id is null then null else json_build_object(
    'id', ${alias}.id,
    'name', ${name},
    'avatar', case when ${alias}.avatar_upload_id is null then null
                   else '/api/uploads/' || ${alias}.avatar_upload_id end,
    'isSleeping', ${alias}.sleeping) end`;
}

/** A timestamptz as the driver hands it over (Date or text), as RFC 3339 (docs/design.md §3.8). */
export function isoTimestamp(value: Date | string): string {
  return new Date(value).toISOString();
}

/** A query as the routes run it, so that EXPLAIN can be run on the very same text. */
export interface SqlQuery {
  sql: string;
  params: unknown[];
}

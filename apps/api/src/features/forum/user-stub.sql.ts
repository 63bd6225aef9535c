/** The user stub of SPEC.md built in SQL from the users row aliased `alias`, or null without one. */
export function userStubJson(alias: string): string {
  return `case when ${alias}.id is null then null else json_build_object(
    'id', ${alias}.id,
    'name', ${alias}.first_name,
    'avatar', case when ${alias}.avatar_upload_id is null then null
                   else '/api/uploads/' || ${alias}.avatar_upload_id end,
    'isSleeping', ${alias}.sleeping) end`;
}

/** PostgreSQL's text or JSON form of a timestamptz as RFC 3339 (DESIGN.md 3). */
export function isoTimestamp(value: string): string {
  return new Date(value).toISOString();
}

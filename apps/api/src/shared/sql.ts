// What the features' SQL files share (docs/design.md §3.10): the query type that carries its row
// type, the one way to run it, and the fragments every response builds the same way.
import { type EntityManager, preparedStatement, runPrepared } from '@foodshare/domain';

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
 * (docs/design.md §3.8). The UTC text form is rewritten without parsing a date: a list answers
 * two or three timestamps a row, and `new Date(text)` took 7 % of the CPU of a list of 2,000
 * reports (`pnpm bench --profile`). Any other form (another session time zone, a year beyond
 * four digits) goes through Date. (Date reads the years 1 to 99 of this form as 19xx or 20xx;
 * the rewrite keeps them, and the platform stores no such dates.)
 */
export function isoTimestamp(value: Date | string): string {
  const utc = typeof value === 'string' ? UTC_TEXT.exec(value) : null;
  if (!utc) return new Date(value).toISOString();
  // Date keeps whole milliseconds: the rest of the fraction is cut, not rounded.
  return `${utc[1]}T${utc[2]}.${(utc[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
}

/**
 * A statement with `?` placeholders and its parameters, as a feature's `.sql.ts` builds it: the
 * service runs it with `runSql`, and an EXPLAIN test can plan the very same text. `Row` types
 * the rows it returns, so that the service never restates it.
 */
export interface SqlQuery<Row extends object = object> {
  sql: string;
  params: unknown[];
  /** Never set: it only carries `Row` from the query's builder to `runSql`. */
  readonly rowType?: Row;
  /**
   * For a read on a request's path: the name it is prepared under, parsed and planned once per
   * connection instead of on every call (packages/domain/src/prepared-statement.ts). Its text
   * must not depend on the values, and an array value must be one `?::type[]` (`em.execute`
   * spreads arrays).
   */
  prepareAs?: string;
}

/**
 * The rows of `query`, run on the request's EntityManager (or its transaction). A query with
 * `prepareAs` runs as a prepared statement outside a transaction, and as text inside one.
 */
export function runSql<Row extends object>(
  em: EntityManager,
  query: SqlQuery<Row>,
): Promise<Row[]> {
  if (query.prepareAs !== undefined) {
    return runPrepared<Row>(em, preparedStatement(query.prepareAs, query.sql), query.params);
  }
  return em.execute<Row[]>(query.sql, query.params);
}

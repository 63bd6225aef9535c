import { type TNull, type TSchema, type TUnion, Type } from 'typebox';

/**
 * A value the platform may not have: the type or JSON null (never an absent key). For response
 * schemas: Fastify's default Ajv coerces types inside `anyOf` and would turn a null in a request
 * into "" or 0, so request schemas leave the key out instead.
 */
export function Nullable<T extends TSchema>(type: T): TUnion<[T, TNull]> {
  return Type.Union([type, Type.Null()]);
}

/** PostgreSQL `integer` ids: a larger number cannot name a row. */
export const MAX_ID = 2_147_483_647;

export function Id(options: { title?: string; description?: string } = {}) {
  return Type.Integer({ minimum: 1, maximum: MAX_ID, ...options });
}

/** RFC 3339 with an offset (docs/design.md §3.8), e.g. `2026-11-22T04:53:00+01:00`. */
export function DateTime(options: { title?: string; description?: string } = {}) {
  return Type.String({ format: 'date-time', ...options });
}

/** The `YYYY-MM-DD HH:MM:SS` form docs/spec.md §2.12 gives the search index's mails and polls. */
export function SqlDateTime(options: { title?: string; description?: string } = {}) {
  return Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$', ...options });
}

/**
 * Every character that counts as white space somewhere a text passes through: JavaScript's `\s`
 * and PostgreSQL's `[[:space:]]`, under the libc (C.UTF-8) and under ICU collations alike. ICU
 * also counts U+001C..U+001F, U+0085, U+00A0, U+2007 and U+202F, which `\s` partly misses; a
 * text blank by any of them is blank here, so a text these schemas accept never fails a
 * database CHECK such as `body ~ '[^[:space:]]'`.
 */
export const SPACE_CHARACTERS =
  '\\t\\n\\v\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/** Matches a text with at least one character that is not white space (SPACE_CHARACTERS). */
export const NOT_BLANK_PATTERN = `[^${SPACE_CHARACTERS}]`;

const SPACE = new RegExp(`[${SPACE_CHARACTERS}]`);

/**
 * The text without leading and trailing white space of SPACE_CHARACTERS: the trim that agrees
 * with NOT_BLANK_PATTERN (String.prototype.trim keeps U+0085 and U+001C..U+001F). A loop rather
 * than a regular expression, so a long run of inner spaces costs linear time.
 */
export function trimSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && SPACE.test(text.charAt(start))) start += 1;
  while (end > start && SPACE.test(text.charAt(end - 1))) end -= 1;
  return text.slice(start, end);
}

/** A text with at least one character that is not white space; stored trimmed (trimSpace). */
export function NonBlankText(options: { maxLength: number; description?: string }) {
  return Type.String({ minLength: 1, pattern: NOT_BLANK_PATTERN, ...options });
}

/**
 * The answer of a write that has nothing to return (a removal, a logout): 200 with `{}`, as
 * the platform's clients expect a 200 with a JSON body for every success.
 */
export const EmptyResultSchema = Type.Object(
  {},
  { title: 'EmptyResult', additionalProperties: false },
);

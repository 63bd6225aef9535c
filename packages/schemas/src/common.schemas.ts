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

/** RFC 3339 with an offset (DESIGN.md 3), e.g. `2026-11-22T04:53:00+01:00`. */
export function DateTime(options: { title?: string; description?: string } = {}) {
  return Type.String({ format: 'date-time', ...options });
}

/** The `YYYY-MM-DD HH:MM:SS` form SPEC.md gives for mails and polls of the search index. */
export function SqlDateTime(options: { title?: string; description?: string } = {}) {
  return Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$', ...options });
}

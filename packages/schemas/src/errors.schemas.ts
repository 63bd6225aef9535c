import { type Static, Type } from 'typebox';

/** RFC 9457 media type of every error answer. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const ProblemFieldErrorSchema = Type.Object(
  {
    path: Type.String({ description: 'JSON pointer into the request part, e.g. `/body/name`' }),
    message: Type.String(),
  },
  { title: 'ProblemFieldError' },
);
export type ProblemFieldError = Static<typeof ProblemFieldErrorSchema>;

/** The body of every 4xx/5xx answer (docs/design.md §3.3); 5xx never carry an internal message. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri-reference', description: '`about:blank` or a problem page' }),
    title: Type.String(),
    status: Type.Integer({ minimum: 400, maximum: 599 }),
    detail: Type.Optional(Type.String()),
    code: Type.String({
      pattern: '^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$',
      description: 'Stable machine-readable code, e.g. CSRF_FAILED',
    }),
    requestId: Type.String(),
    errors: Type.Optional(Type.Array(ProblemFieldErrorSchema)),
  },
  { title: 'Problem' },
);
export type Problem = Static<typeof ProblemSchema>;

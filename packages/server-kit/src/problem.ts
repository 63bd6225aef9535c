/**
 * An error that becomes an `application/problem+json` answer (RFC 9457). Services throw
 * it without knowing Fastify; `code` is the stable, machine-readable part of the contract.
 */
export class Problem extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: { path: string; message: string }[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(options: {
    status: number;
    code: string;
    title: string;
    detail?: string;
    errors?: { path: string; message: string }[];
    headers?: Record<string, string>;
  }) {
    super(options.detail ?? options.title);
    this.name = 'Problem';
    this.status = options.status;
    this.code = options.code;
    this.title = options.title;
    this.detail = options.detail;
    this.errors = options.errors;
    this.headers = options.headers;
  }

  static badRequest(code: string, detail?: string): Problem {
    return new Problem({ status: 400, code, title: 'Bad Request', ...(detail && { detail }) });
  }

  static unauthorized(detail = 'You need to be logged in.'): Problem {
    return new Problem({ status: 401, code: 'UNAUTHENTICATED', title: 'Unauthorized', detail });
  }

  /** A live session whose account was deactivated (or removed) since it signed in. */
  static accountInactive(): Problem {
    return Problem.unauthorized('Your account is no longer active.');
  }

  static forbidden(code = 'FORBIDDEN', detail = 'You may not do this.'): Problem {
    return new Problem({ status: 403, code, title: 'Forbidden', detail });
  }

  static notFound(detail = 'There is no such resource.'): Problem {
    return new Problem({ status: 404, code: 'NOT_FOUND', title: 'Not Found', detail });
  }

  /** The path exists, but not for this method: `allowed` are the methods it has. */
  static methodNotAllowed(allowed: string[]): Problem {
    return new Problem({
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      title: 'Method Not Allowed',
      detail: `This path answers ${allowed.join(', ')} only.`,
      headers: { allow: allowed.join(', ') },
    });
  }

  static conflict(code: string, detail: string): Problem {
    return new Problem({ status: 409, code, title: 'Conflict', detail });
  }

  static unprocessable(code: string, detail: string): Problem {
    return new Problem({ status: 422, code, title: 'Unprocessable Content', detail });
  }

  static tooManyRequests(retryAfterSeconds: number): Problem {
    return new Problem({
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      title: 'Too Many Requests',
      detail: `Too many attempts. Try again in ${retryAfterSeconds} seconds.`,
      headers: { 'retry-after': String(retryAfterSeconds) },
    });
  }

  /** A dependency is out of reach for now: the client may retry after the given seconds. */
  static unavailable(code: string, detail: string, retryAfterSeconds = 1): Problem {
    return new Problem({
      status: 503,
      code,
      title: 'Service Unavailable',
      detail,
      headers: { 'retry-after': String(retryAfterSeconds) },
    });
  }

  /**
   * The request lost a race with another one (a deadlock, a serialization failure, a write
   * refused more often than it retries) and changed nothing: sent again, it may pass.
   */
  static databaseConflict(): Problem {
    return Problem.unavailable(
      'DATABASE_CONFLICT',
      'The request collided with another one and changed nothing. Send it again.',
    );
  }
}

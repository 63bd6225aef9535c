import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseConflict, isDatabaseUnavailable } from '@foodshare/domain';
import { StateStoreUnavailableError } from '../kv/redis-store.ts';
import { Problem } from '../problem.ts';
import { fieldErrors } from '../validation-errors.ts';

const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

// Fastify's own client errors, given stable codes of ours instead of its internal ones.
const FRAMEWORK_CODES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
};

function statusTitle(status: number): string {
  const titles: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    409: 'Conflict',
    413: 'Content Too Large',
    415: 'Unsupported Media Type',
    422: 'Unprocessable Content',
    408: 'Request Timeout',
    429: 'Too Many Requests',
  };
  return titles[status] ?? 'Error';
}

// A lost dependency is not the client's fault nor a bug: 503 with a hint when to retry, and a
// code that says which one, so that clients and dashboards tell the two outages apart. A
// deadlock or serialization failure is neither either: the transaction met a concurrent one and
// was rolled back whole, so the same request sent again is expected to succeed.
export function unavailableProblem(error: unknown): Problem | undefined {
  if (error instanceof StateStoreUnavailableError) {
    return Problem.unavailable(
      'STATE_STORE_UNAVAILABLE',
      'The session and state store cannot be reached right now. Try again shortly.',
    );
  }
  if (isDatabaseUnavailable(error)) {
    return Problem.unavailable(
      'DATABASE_UNAVAILABLE',
      'The database cannot be reached right now. Try again shortly.',
    );
  }
  if (isDatabaseConflict(error)) return Problem.databaseConflict();
  return undefined;
}

function toProblem(error: FastifyError | Problem): Problem {
  if (error instanceof Problem) return error;
  const unavailable = unavailableProblem(error);
  if (unavailable) return unavailable;
  if (error.validation) {
    // A path value that does not match its pattern names no resource (docs/design.md §3.2).
    if (error.validationContext === 'params') return Problem.notFound();
    return new Problem({
      status: 400,
      code: 'VALIDATION_FAILED',
      title: 'Bad Request',
      detail: 'The request does not match the expected shape.',
      errors: fieldErrors(error.validationContext ?? 'request', error.validation),
    });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors describe the request; a library's may describe us.
    const fromFramework = error.code?.startsWith('FST_') ?? false;
    return new Problem({
      status,
      code: (error.code && FRAMEWORK_CODES[error.code]) ?? 'BAD_REQUEST',
      title: statusTitle(status),
      detail: fromFramework ? error.message : 'The request cannot be processed.',
    });
  }
  // Anything else is our fault; its message may hold internals and is never sent.
  return new Problem({
    status: status >= 500 && status < 600 ? status : 500,
    code: 'INTERNAL_ERROR',
    title: 'Internal Server Error',
    detail: 'Something went wrong on our side. The request id identifies it in our logs.',
  });
}

function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: Problem) {
  if (problem.headers) void reply.headers(problem.headers);
  return reply
    .status(problem.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send({
      type: 'about:blank',
      title: problem.title,
      status: problem.status,
      ...(problem.detail === undefined ? {} : { detail: problem.detail }),
      code: problem.code,
      requestId: request.id,
      ...(problem.errors ? { errors: problem.errors } : {}),
    });
}

/**
 * The methods the router has a route for at this URL, params and all: HEAD wherever Fastify
 * exposes it beside a GET, OPTIONS only where a route answers a CORS preflight.
 */
function allowedMethods(app: FastifyInstance, url: string): string[] {
  return app.supportedMethods.filter((method) => app.findRoute({ method, url }) !== null);
}

declare module 'fastify' {
  interface FastifyReply {
    /** The code of a 4xx problem answered, for the request's log line. */
    problemCode: string | null;
  }
}

export const errorsPlugin = fp(
  (app: FastifyInstance) => {
    app.decorateReply('problemCode', null);
    app.setErrorHandler((error: FastifyError | Problem, request, reply) => {
      const problem = toProblem(error);
      if (problem.status === 503) {
        request.log.warn({ err: error, code: problem.code }, 'dependency unavailable');
      } else if (problem.status >= 500) {
        request.log.error({ err: error }, 'request failed');
      } else {
        // Said in the request's one log line (request-log.ts), not in a line of its own.
        reply.problemCode = problem.code;
      }
      return sendProblem(request, reply, problem);
    });
    app.setNotFoundHandler((request, reply) => {
      // A path that has routes, asked with another method: 405 with the methods it has
      // (RFC 9110 15.5.6), so that a client learns its method is wrong, not its path.
      const allowed = allowedMethods(app, request.url);
      if (allowed.length > 0) return sendProblem(request, reply, Problem.methodNotAllowed(allowed));
      return sendProblem(
        request,
        reply,
        Problem.notFound('No route matches this method and path.'),
      );
    });
  },
  { name: 'foodshare-errors', fastify: '5.x' },
);

import { unavailableProblem } from '@foodshare/server-kit';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthMetrics } from '../observability/metrics.ts';
import { invalidRequest, OAuthError, serverError } from './oauth-errors.ts';

/*
 * Where an error becomes an answer, for the whole service:
 *
 * - the protocol endpoints a client library calls (token, revocation, userinfo) answer every
 *   error as the RFC's JSON (RFC 6749 5.2, RFC 7009 2.2.1, RFC 6750 3.1): their handlers pass
 *   what they catch to `answerOAuthError`, and `oauthRouteErrorHandler` answers what Fastify
 *   refuses before a handler runs;
 * - the authorization endpoint sends its errors back to the client by redirect, or shows the
 *   error page when the redirect URI cannot be trusted (authorization-responses.ts);
 * - the pages a person sees answer with pages (pages/error.page.ts);
 * - anything else that escapes a route, and every path without one, reaches the shared error
 *   handler of server-kit: problem+json (docs/design.md §3.3), never with an internal message.
 */

/** Anything thrown: an exposed OAuthError as is, everything else as server_error. */
export function toOAuthError(error: unknown): OAuthError {
  if (error instanceof OAuthError && error.expose) return error;
  // PostgreSQL or Redis out of reach: worth retrying, unlike a bug.
  const unavailable = unavailableProblem(error);
  if (unavailable) {
    return new OAuthError({
      error: 'temporarily_unavailable',
      description: 'The server is temporarily unavailable. Try again shortly.',
      status: 503,
      ...(unavailable.headers ? { headers: unavailable.headers } : {}),
    });
  }
  return serverError();
}

/**
 * RFC 6749 5.2 JSON error: `{ error, error_description }`, never cached (5.1), with the error's
 * own headers (WWW-Authenticate, Retry-After). Counted (oauth_errors_total{code}); an internal
 * failure is logged, and answered without its message.
 */
export function answerOAuthError(
  reply: FastifyReply,
  thrown: unknown,
  metrics: AuthMetrics,
): FastifyReply {
  const error = toOAuthError(thrown);
  metrics.oauthError(error.error);
  if (error.error === 'server_error' && thrown !== error) reply.log.error({ err: thrown });
  return reply
    .code(error.status)
    .headers({ 'cache-control': 'no-store', pragma: 'no-cache', ...error.headers })
    .type('application/json; charset=utf-8')
    .send({ error: error.error, error_description: error.description });
}

/**
 * Route error handler of the form-posting protocol endpoints: what Fastify refuses before the
 * handler runs (wrong content type, malformed or oversized body) is an `invalid_request` in the
 * RFC's JSON, not the REST problem+json. A body over the limit keeps its 413, as a request over
 * a rate limit keeps its 429: the status says which limit, as at every REST route.
 */
export const oauthRouteErrorHandler =
  (metrics: AuthMetrics) =>
  (error: FastifyError | OAuthError, _request: FastifyRequest, reply: FastifyReply): void => {
    const status = error instanceof OAuthError ? error.status : (error.statusCode ?? 500);
    let answer: unknown = error;
    if (!(error instanceof OAuthError) && status === 413) {
      answer = new OAuthError({
        error: 'invalid_request',
        description: 'The request body is too large',
        status: 413,
      });
    } else if (!(error instanceof OAuthError) && status < 500) {
      answer = invalidRequest(
        status === 415
          ? 'The request body must be application/x-www-form-urlencoded'
          : 'The request body cannot be read',
      );
    }
    void answerOAuthError(reply, answer, metrics);
  };

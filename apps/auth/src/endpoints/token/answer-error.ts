import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest, OAuthError, sendTokenError, toOAuthError } from '../../oauth-errors.ts';

/** Answers an RFC 6749 5.2 error and counts it (oauth_errors_total{code}). */
export function answerOAuthError(reply: FastifyReply, thrown: unknown): FastifyReply {
  reply.server.oauth.metrics.oauthError(toOAuthError(thrown).error);
  return sendTokenError(reply, thrown);
}

/**
 * Route error handler of the form-posting protocol endpoints: what Fastify refuses before the
 * handler runs (wrong content type, malformed or oversized body) is an `invalid_request` in the
 * RFC's JSON, not the REST problem+json.
 */
export function oauthRouteErrorHandler(
  error: FastifyError | OAuthError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error instanceof OAuthError ? error.status : (error.statusCode ?? 500);
  let answer: unknown = error;
  if (!(error instanceof OAuthError) && status < 500) {
    answer = invalidRequest(
      status === 415
        ? 'The request body must be application/x-www-form-urlencoded'
        : 'The request body cannot be read',
    );
  }
  void answerOAuthError(reply, answer);
}

/** RFC 6749 3.2 / RFC 7009 2.1: parameters are sent as application/x-www-form-urlencoded. */
export function assertFormEncoded(request: FastifyRequest): void {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw invalidRequest('The request body must be application/x-www-form-urlencoded');
  }
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import Fastify from 'fastify';

// The levels at which info lines are written (pino's, from the most verbose).
const WRITES_INFO = new Set(['trace', 'debug', 'info']);

// The path without its query: a query may carry a token (the id_token_hint of a logout).
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * One log line per request, once its answer is sent: method, path, status and milliseconds,
 * beside the request id that request.log carries, and the problem code of a 4xx answer. Fastify writes two (the request, then the
 * response), which halves what a reader sees at once and serialises twice per request. Routes
 * with a higher `logLevel` (health checks, metrics) stay silent as before.
 */
export class RequestLogController extends Fastify.LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // Checked first, so that a quieter level costs the hot path no allocation.
    if (!error && !WRITES_INFO.has(request.log.level)) return;
    const entry = {
      method: request.method,
      url: pathOf(request.url),
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      // A refusal's problem code (plugins/errors.ts); undefined is left out of the line.
      code: reply.problemCode ?? undefined,
    };
    if (error) request.log.error({ ...entry, err: error }, 'request errored');
    else request.log.info(entry, 'request completed');
  }
}

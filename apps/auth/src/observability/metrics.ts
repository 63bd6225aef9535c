import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * The auth service's Prometheus metrics, in a registry of its own: several apps share a process
 * in tests and in the one-process start, and prom-client's global registry refuses a second
 * metric of the same name.
 */
export class AuthMetrics {
  readonly registry = new Registry();
  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route pattern',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly tokensIssuedTotal = new Counter({
    name: 'oauth_tokens_issued_total',
    help: 'Token responses by grant type and client',
    labelNames: ['grant', 'client'] as const,
    registers: [this.registry],
  });
  readonly errorsTotal = new Counter({
    name: 'oauth_errors_total',
    help: 'OAuth error responses by error code',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });
  readonly auditEventsTotal = new Counter({
    name: 'oauth_audit_events_total',
    help: 'Audit events by event',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * One token response. `client` is a label: client ids are registered by administrators, so
   * their number stays small (an unknown client never gets tokens).
   */
  tokensIssued(grant: string, clientId: string): void {
    this.tokensIssuedTotal.inc({ grant, client: clientId });
  }

  /** One OAuth error answered (`invalid_grant`, `access_denied`, ...), whatever the endpoint. */
  oauthError(code: string): void {
    this.errorsTotal.inc({ code });
  }

  auditEvent(event: string): void {
    this.auditEventsTotal.inc({ event });
  }
}

/**
 * Times every request by its route pattern (`/oauth/token`, never a raw URL with ids or
 * query strings, which would explode the label set), and serves GET /metrics in Prometheus text
 * format. /metrics is for the scraper inside the deployment: the public proxy (docker/Caddyfile)
 * routes only /oauth, /.well-known, /admin and the pages here, so /metrics is not reachable
 * from outside.
 */
export function registerMetrics(app: FastifyInstance, metrics: AuthMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', async (_request, reply) => {
    const body = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
  });
}

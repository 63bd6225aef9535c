import { ServiceMetrics } from '@foodshare/server-kit';
import { Counter } from 'prom-client';

/**
 * The auth service's Prometheus metrics: those of every service (requests, pool, event loop;
 * served at GET /metrics by server-kit's metricsPlugin) and the OAuth counters.
 */
export class AuthMetrics extends ServiceMetrics {
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

import type { FastifyRequest } from 'fastify';
import type { AuthMetrics } from './metrics.ts';

/** The audit events of docs/oauth.md §6.6. */
export const AUDIT_EVENTS = [
  'login_succeeded',
  'login_failed',
  'logout',
  'consent_granted',
  'consent_denied',
  'consent_revoked',
  'code_issued',
  'code_redeemed',
  'code_reused',
  'device_approved',
  'device_code_redeemed',
  'tokens_issued',
  'tokens_refreshed',
  'tokens_revoked',
  'refresh_reuse_detected',
  'client_created',
  'client_changed',
  'client_deleted',
] as const;

export type AuditEvent = (typeof AUDIT_EVENTS)[number];

/**
 * One audit event: a structured log line (`audit` names the event; the request id ties it to
 * the request) and a counter. Fields name people and clients by id, never carry tokens,
 * secrets or passwords (the logger redacts the usual names as a second line of defence).
 */
export function writeAudit(
  metrics: AuthMetrics,
  request: FastifyRequest,
  event: AuditEvent,
  fields: Record<string, unknown> = {},
): void {
  request.log.info({ ...fields, audit: event }, `audit: ${event}`);
  metrics.auditEvent(event);
}

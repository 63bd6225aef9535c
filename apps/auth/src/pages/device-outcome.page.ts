import type { FastifyReply } from 'fastify';
import type { AuthorizationOutcome } from '../authorization/authorization-flow.ts';
import type { AuthMetrics } from '../observability/metrics.ts';
import { html } from './html.ts';
import { sendPage } from './layout.ts';
import type { Locale } from './locale.ts';
import { messagesFor } from './messages.ts';
import { sendRegionRefusalPage } from './region-refusal.page.ts';

type DeviceOutcome = Extract<
  AuthorizationOutcome,
  { kind: 'device_approved' | 'error' | 'not_in_regions' }
>;

/** The outcomes of a device request that end on a page of their own (the others are shared). */
export function sendsDevicePage(outcome: AuthorizationOutcome): outcome is DeviceOutcome {
  return (
    outcome.kind === 'device_approved' ||
    outcome.kind === 'error' ||
    outcome.kind === 'not_in_regions'
  );
}

/**
 * RFC 8628: where a device request ends in the browser. Nothing goes back to a client here; the
 * device learns the decision at its next poll, so the page only tells the user.
 */
export function sendDeviceOutcomePage(
  reply: FastifyReply,
  outcome: DeviceOutcome,
  locale: Locale,
  metrics: AuthMetrics,
) {
  const { device } = messagesFor(locale);
  switch (outcome.kind) {
    case 'device_approved':
      return sendPage(reply, {
        locale,
        title: device.approved.title,
        body: html`<h1>${device.approved.title}</h1>
          <p id="device-approved">${device.approved.text(outcome.clientName)}</p>`,
      });
    case 'not_in_regions':
      metrics.oauthError(outcome.error.error);
      return sendRegionRefusalPage(reply, {
        locale,
        clientName: outcome.clientName,
        returnUrl: null,
      });
    case 'error':
      metrics.oauthError(outcome.error.error);
      return sendPage(reply, {
        locale,
        title: device.denied.title,
        body: html`<h1>${device.denied.title}</h1>
          <p id="device-denied">${device.denied.text}</p>`,
      });
  }
}

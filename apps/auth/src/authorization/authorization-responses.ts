import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthServices } from '../auth-services.ts';
import { sendExpiredRequestPage } from '../pages/error.page.ts';
import { sendRegionRefusalPage } from '../pages/region-refusal.page.ts';
import type { Locale } from '../pages/locale.ts';
import { consentPageUrl, loginPageUrl } from '../pages/page-paths.ts';
import type { OAuthError } from '../errors/oauth-errors.ts';
import type { AuthorizationContext, AuthorizationOutcome } from './authorization-flow.ts';
import { sendDeviceOutcomePage, sendsDevicePage } from '../pages/device-outcome.page.ts';

/** What the authorization endpoint and the login and consent pages use to advance a request. */
export type AuthorizationServices = Pick<
  AuthServices,
  'issuer' | 'metrics' | 'audit' | 'codes' | 'consents' | 'authorizationRequests' | 'devices'
>;

/** The stores `advance()` works with, for this request. */
export function authorizationContext(
  services: AuthorizationServices,
  request: FastifyRequest,
): AuthorizationContext {
  return {
    em: request.em,
    codes: services.codes,
    consents: services.consents,
    requests: services.authorizationRequests,
    devices: services.devices,
    audit: (event, fields) => services.audit(request, event, fields),
  };
}

/**
 * The redirect URI with response parameters added to its query (`&` when it has one already).
 * Appended to the string the client sent, which matched a registered one, rather than
 * re-serialised through URL, so the client gets back exactly that URI (its port too, on
 * loopback) and its own query (registered URIs carry no fragment).
 */
export function clientRedirectUrl(
  redirectUri: string,
  params: Record<string, string | null>,
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== null) query.append(name, value);
  }
  return `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}${query.toString()}`;
}

/** RFC 6749 4.1.2.1 with RFC 9207's `iss`, so a client talking to several servers can tell. */
export function errorRedirectUrl(
  issuer: string,
  target: { redirectUri: string; state: string | null },
  error: OAuthError,
): string {
  return clientRedirectUrl(target.redirectUri, {
    error: error.error,
    error_description: error.description,
    state: target.state,
    iss: issuer,
  });
}

export interface OutcomeOptions {
  /**
   * The redirect URI and state of the request the outcome belongs to; a device request's
   * (`deviceId`) outcomes are pages, as nothing goes back to a client in the browser.
   */
  target: { redirectUri: string; state: string | null; deviceId?: string };
  /**
   * After a POST (login, consent, a form-posted authorization request) the answer is 303, so
   * the browser follows with GET: a 307 would re-send the password to the client (RFC 9700
   * 4.12). After a GET, 302.
   */
  afterPost: boolean;
  locale: Locale;
}

export function sendOutcome(
  { issuer, metrics }: Pick<AuthServices, 'issuer' | 'metrics'>,
  reply: FastifyReply,
  outcome: AuthorizationOutcome,
  { target, afterPost, locale }: OutcomeOptions,
) {
  const status = afterPost ? 303 : 302;
  // Responses that carry a code or a page's next step must not be stored anywhere.
  void reply.header('cache-control', 'no-store');
  if (target.deviceId !== undefined && sendsDevicePage(outcome)) {
    return sendDeviceOutcomePage(reply, outcome, locale, metrics);
  }
  switch (outcome.kind) {
    case 'error':
      metrics.oauthError(outcome.error.error);
      return reply.redirect(errorRedirectUrl(issuer, target, outcome.error), status);
    case 'not_in_regions':
      metrics.oauthError(outcome.error.error);
      return sendRegionRefusalPage(reply, {
        locale,
        clientName: outcome.clientName,
        returnUrl: errorRedirectUrl(issuer, target, outcome.error),
      });
    case 'code':
      return reply.redirect(
        clientRedirectUrl(target.redirectUri, {
          code: outcome.code,
          state: target.state,
          iss: issuer,
        }),
        status,
      );
    case 'device_approved':
      return sendDeviceOutcomePage(reply, outcome, locale, metrics);
    case 'login':
      return reply.redirect(loginPageUrl(outcome.pending.id), status);
    case 'consent':
      return reply.redirect(consentPageUrl(outcome.pending.id), status);
    case 'expired':
      return sendExpiredRequestPage(reply, locale);
  }
}

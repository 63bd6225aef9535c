import type { FastifyReply } from 'fastify';
import type { AuthMetrics } from '../observability/metrics.ts';
import { html } from './html.ts';
import { sendPage } from './layout.ts';
import type { Locale } from './locale.ts';
import { messagesFor } from './messages.ts';

/**
 * RFC 6749 4.1.2.1: an unknown client or a redirect URI that is not registered must not be
 * redirected to (it could be an attacker's); the user sees this page instead. The message
 * of docs/spec.md §7.2 stays in the page verbatim, in both languages, for whoever reports the
 * problem.
 */
export function sendInvalidRedirectPage(reply: FastifyReply, locale: Locale, metrics: AuthMetrics) {
  // An OAuth error like the redirected ones, only shown instead of sent (RFC 6749 4.1.2.1 names
  // a mismatching redirection URI an invalid request): counted in oauth_errors_total alike.
  metrics.oauthError('invalid_request');
  const { invalidRedirectUri, technicalDetail } = messagesFor(locale);
  return sendPage(reply, {
    locale,
    status: 400,
    title: invalidRedirectUri.title,
    body: html`<h1>${invalidRedirectUri.title}</h1>
      <p>${invalidRedirectUri.text}</p>
      <p class="muted">${technicalDetail}: <code>Invalid redirect_uri</code></p>`,
  });
}

/** A parked authorization request that is gone (expired, or already decided). */
export function sendExpiredRequestPage(reply: FastifyReply, locale: Locale) {
  const { expiredRequest } = messagesFor(locale);
  return sendPage(reply, {
    locale,
    status: 400,
    title: expiredRequest.title,
    body: html`<h1>${expiredRequest.title}</h1>
      <p>${expiredRequest.text}</p>`,
  });
}

/** A form whose CSRF token is missing or wrong: refused, nothing changed. */
export function sendFormExpiredPage(reply: FastifyReply, locale: Locale) {
  const { formExpired, expiredRequest } = messagesFor(locale);
  return sendPage(reply, {
    locale,
    status: 403,
    title: expiredRequest.title,
    body: html`<h1>${expiredRequest.title}</h1>
      <p class="error">${formExpired}</p>`,
  });
}

/** Over the per-address limit of the sign-in pages: refused with Retry-After, nothing kept. */
export function sendTooManyRequestsPage(reply: FastifyReply, locale: Locale, seconds: number) {
  const { tooManyRequests } = messagesFor(locale);
  void reply.header('retry-after', String(seconds));
  return sendPage(reply, {
    locale,
    status: 429,
    title: tooManyRequests.title,
    body: html`<h1>${tooManyRequests.title}</h1>
      <p class="error">${tooManyRequests.text(seconds)}</p>`,
  });
}

import type { FastifyReply } from 'fastify';
import type { AuthMetrics } from '../../observability/metrics.ts';
import { formTokenField } from '../../pages/form-token.ts';
import { html } from '../../pages/html.ts';
import { sendPage } from '../../pages/layout.ts';
import type { Locale } from '../../pages/locale.ts';
import { messagesFor } from '../../pages/messages.ts';
import { CONNECTED_APPS_PATH } from '../../pages/page-paths.ts';
import type { LogoutRefusal } from './logout-request.ts';

export const LOGOUT_PATH = '/oauth/logout';
export const LOGOUT_CONFIRM_PATH = '/oauth/logout/confirm';

export interface LogoutConfirmationPage {
  locale: Locale;
  /** The session's CSRF token: only the user's own click on our page ends the session. */
  token: string;
  /** Registered by whoever runs the client: attacker-controlled text, escaped like all text. */
  clientName: string | null;
  /** The checked request, carried to the confirmation as hidden fields and checked again. */
  fields: Record<string, string | null>;
}

/**
 * RP-Initiated Logout 1.0 §2: without a hint that names the logged-in user, the request may
 * come from anyone (a link, an image, another site's form), so the user is asked first.
 */
export function sendLogoutConfirmationPage(reply: FastifyReply, page: LogoutConfirmationPage) {
  const { logout } = messagesFor(page.locale);
  const hidden = Object.entries(page.fields)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`);
  return sendPage(reply, {
    locale: page.locale,
    title: logout.title,
    body: html`<h1>${logout.title}</h1>
      <p>${logout.question(reply.server.pageSettings.platformName)}</p>
      ${page.clientName === null ? null : html`<p>${logout.askedBy(page.clientName)}</p>`}
      <form method="post" action="${LOGOUT_CONFIRM_PATH}">
        ${formTokenField(page.token)} ${hidden}
        <div class="actions">
          <button type="submit" class="primary" id="confirm-logout">${logout.confirm}</button>
          <a class="button" href="${CONNECTED_APPS_PATH}">${logout.cancel}</a>
        </div>
      </form>`,
  });
}

/** The end of a logout with nowhere registered to return to (§3: the OP's own page). */
export function sendLoggedOutPage(reply: FastifyReply, locale: Locale) {
  const { logout } = messagesFor(locale);
  return sendPage(reply, {
    locale,
    title: logout.done,
    body: html`<h1>${logout.done}</h1>
      <p id="logged-out">${logout.doneText}</p>`,
  });
}

/**
 * A logout request that did not check out (§4): shown, never redirected, and the session
 * stays. The refusal is in the page verbatim, for whoever reports the problem.
 */
export function sendInvalidLogoutPage(
  reply: FastifyReply,
  locale: Locale,
  refusal: LogoutRefusal,
  metrics: AuthMetrics,
) {
  metrics.oauthError('invalid_request');
  const { logout, technicalDetail } = messagesFor(locale);
  return sendPage(reply, {
    locale,
    status: 400,
    title: logout.invalid.title,
    body: html`<h1>${logout.invalid.title}</h1>
      <p>${logout.invalid.text}</p>
      <p class="muted">${technicalDetail}: <code>${refusal}</code></p>`,
  });
}

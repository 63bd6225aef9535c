import type { FastifyReply } from 'fastify';
import { formTokenField } from '../../pages/form-token.ts';
import { html } from '../../pages/html.ts';
import { sendPage } from '../../pages/layout.ts';
import type { Locale } from '../../pages/locale.ts';
import { describeScope, messagesFor } from '../../pages/messages.ts';
import { CONSENT_PATH } from '../../pages/page-paths.ts';

export interface ConsentPage {
  locale: Locale;
  /** The session's CSRF token, echoed by the form. */
  token: string;
  requestId: string;
  /** Registered by whoever runs the client: attacker-controlled text, escaped like all text. */
  clientName: string;
  scopes: readonly string[];
}

/**
 * The consent screen: who asks, for what in plain words, "remember this choice", allow and deny
 * in one form (plain HTML; the layout forbids framing, so the buttons cannot be clickjacked).
 */
export function sendConsentPage(reply: FastifyReply, page: ConsentPage) {
  const messages = messagesFor(page.locale);
  const { consent } = messages;
  return sendPage(reply, {
    locale: page.locale,
    title: consent.title,
    body: html`<h1>${consent.title}</h1>
      <p>${consent.question(page.clientName)}</p>
      <ul>
        ${page.scopes.map((scope) => html`<li>${describeScope(messages, scope)}</li>`)}
      </ul>
      <form method="post" action="${CONSENT_PATH}">
        ${formTokenField(page.token)}
        <input type="hidden" name="request" value="${page.requestId}" />
        <label><input type="checkbox" name="remember" value="on" /> ${consent.remember}</label>
        <button type="submit" name="decision" value="allow">${consent.allow}</button>
        <button type="submit" name="decision" value="deny">${consent.deny}</button>
      </form>`,
  });
}

import type { FastifyReply } from 'fastify';
import { formTokenField } from '../../pages/form-token.ts';
import { html } from '../../pages/html.ts';
import { sendPage } from '../../pages/layout.ts';
import type { Locale } from '../../pages/locale.ts';
import { messagesFor } from '../../pages/messages.ts';
import { DEVICE_PATH } from '../../pages/page-paths.ts';

export interface DevicePage {
  locale: Locale;
  /** The session's CSRF token, echoed by the form. */
  token: string;
  /** The user code of verification_uri_complete, normalised and formatted, or empty. */
  userCode: string;
}

/**
 * RFC 8628 3.3: the user code typed, or prefilled from verification_uri_complete. Either way the
 * user submits it (RFC 8628 5.4: a link with a code alone approves nothing), and the consent page
 * that follows names the client.
 */
export function sendDevicePage(reply: FastifyReply, page: DevicePage) {
  const { device } = messagesFor(page.locale);
  return sendPage(reply, {
    locale: page.locale,
    title: device.title,
    body: html`<h1>${device.title}</h1>
      <p>${device.intro}</p>
      <form method="post" action="${DEVICE_PATH}">
        ${formTokenField(page.token)}
        <label for="user_code">${device.code}</label>
        <input
          id="user_code"
          name="user_code"
          type="text"
          autocomplete="off"
          autocapitalize="characters"
          spellcheck="false"
          required
          maxlength="32"
          value="${page.userCode}"
        />
        <button type="submit" class="primary">${device.submit}</button>
      </form>`,
  });
}

/** An unknown, expired, used or decided user code: the same page for all, so nothing leaks. */
export function sendUnknownUserCodePage(reply: FastifyReply, locale: Locale) {
  const { device } = messagesFor(locale);
  return sendPage(reply, {
    locale,
    status: 400,
    title: device.unknown.title,
    body: html`<h1>${device.unknown.title}</h1>
      <p id="device-code-unknown">${device.unknown.text}</p>
      <p><a class="button" href="${DEVICE_PATH}">${device.title}</a></p>`,
  });
}

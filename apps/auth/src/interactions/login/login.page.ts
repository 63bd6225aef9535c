import type { FastifyReply } from 'fastify';
import { formTokenField } from '../../pages/form-token.ts';
import { html } from '../../pages/html.ts';
import { sendPage } from '../../pages/layout.ts';
import type { Locale } from '../../pages/locale.ts';
import { messagesFor } from '../../pages/messages.ts';
import { RETURN_TO_PARAM } from '../../pages/page-paths.ts';

export interface LoginPage {
  locale: Locale;
  token: string;
  /** The parked authorization request to continue after login. */
  requestId?: string;
  /** A page of this service to show after login (already checked by safeReturnPath). */
  returnTo?: string;
  /** The application the user is signing in for (attacker-controlled text: escaped). */
  clientName?: string;
  /** Filled in again after a failed attempt; never the password. */
  email?: string;
  error?: string;
  status?: number;
}

/**
 * The login form: plain HTML, posts to /login, works without JavaScript. "Forgot your
 * password?" leads to the platform's own reset page when one is configured (PASSWORD_RESET_URL).
 */
export function sendLoginPage(reply: FastifyReply, page: LoginPage) {
  const { login } = messagesFor(page.locale);
  const { passwordResetUrl } = reply.server.pageSettings;
  return sendPage(reply, {
    locale: page.locale,
    status: page.status ?? 200,
    title: login.title,
    body: html`<h1>${login.title}</h1>
      ${page.clientName === undefined ? '' : html`<p>${login.continueTo(page.clientName)}</p>`}
      ${page.error === undefined ? '' : html`<p class="error" role="alert">${page.error}</p>`}
      <form method="post" action="/login">
        ${formTokenField(page.token)}
        ${
          page.requestId === undefined
            ? ''
            : html`<input type="hidden" name="request" value="${page.requestId}" />`
        }
        ${
          page.returnTo === undefined
            ? ''
            : html`<input type="hidden" name="${RETURN_TO_PARAM}" value="${page.returnTo}" />`
        }
        <label for="email">${login.email}</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value="${page.email ?? ''}"
        />
        <label for="password">${login.password}</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
        />
        ${
          passwordResetUrl === null
            ? null
            : html`<p class="small">
                <a id="forgot-password" href="${passwordResetUrl}">${login.forgotPassword}</a>
              </p>`
        }
        <label class="check"
          ><input type="checkbox" name="rememberMe" value="on" />
          <span>${login.rememberMe}</span></label
        >
        <button type="submit" class="primary">${login.submit}</button>
      </form>`,
  });
}

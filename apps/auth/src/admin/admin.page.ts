import type { FastifyReply } from 'fastify';
import { html, type SafeHtml } from '../pages/html.ts';
import { sendPage } from '../pages/layout.ts';
import type { Locale } from '../pages/locale.ts';
import { adminTextsFor, type AdminTexts } from './admin-texts.ts';

export const ADMIN_BASE_PATH = '/admin/oauthclients';

export const adminPaths = {
  list: ADMIN_BASE_PATH,
  newClient: `${ADMIN_BASE_PATH}/new`,
  audit: `${ADMIN_BASE_PATH}/audit`,
  client: (id: number) => `${ADMIN_BASE_PATH}/${id}`,
  activate: (id: number) => `${ADMIN_BASE_PATH}/${id}/activate`,
  deactivate: (id: number) => `${ADMIN_BASE_PATH}/${id}/deactivate`,
  remove: (id: number) => `${ADMIN_BASE_PATH}/${id}/delete`,
  secret: (id: number) => `${ADMIN_BASE_PATH}/${id}/secret`,
  endPreviousSecret: (id: number) => `${ADMIN_BASE_PATH}/${id}/secret/end-previous`,
};

export function formatDateTime(locale: Locale, date: Date): string {
  return new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Berlin',
  }).format(date);
}

function navigation(texts: AdminTexts): SafeHtml {
  return html`<nav>
    <a href="${adminPaths.list}">${texts.title}</a>
    <a href="${adminPaths.newClient}">${texts.newClient}</a>
    <a href="${adminPaths.audit}">${texts.auditLog}</a>
  </nav>`;
}

export interface AdminPageOptions {
  locale: Locale;
  title: string;
  body: SafeHtml;
  status?: number;
  /** Off for people who may not use the admin pages. */
  navigation?: boolean;
}

/** An admin page: the shared layout and its headers (no framing, no caching) plus navigation. */
export function sendAdminPage(
  reply: FastifyReply,
  { locale, title, body, status = 200, navigation: withNavigation = true }: AdminPageOptions,
) {
  const texts = adminTextsFor(locale);
  return sendPage(reply, {
    locale,
    title: `${title} – ${texts.title}`,
    status,
    // The shared frame is sized for login and consent; the client table needs the width.
    wide: true,
    body: html`${withNavigation ? navigation(texts) : null}
      <h1>${title}</h1>
      ${body}`,
  });
}

/** A page that only says something: refusals, a missing client, an expired form. */
export function sendAdminMessage(
  reply: FastifyReply,
  locale: Locale,
  message: { title: string; text: string },
  status: number,
  options: { navigation?: boolean } = {},
) {
  return sendAdminPage(reply, {
    ...options,
    locale,
    status,
    title: message.title,
    body: html`<p>${message.text}</p>`,
  });
}

export function notice(texts: AdminTexts, done: string | undefined): SafeHtml {
  const text = done === undefined ? undefined : texts.notices[done];
  return text === undefined ? html`` : html`<p class="notice" role="status">${text}</p>`;
}

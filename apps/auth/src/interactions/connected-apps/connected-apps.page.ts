import type { FastifyReply } from 'fastify';
import { formTokenField } from '../../pages/form-token.ts';
import { html } from '../../pages/html.ts';
import { sendPage } from '../../pages/layout.ts';
import type { Locale } from '../../pages/locale.ts';
import { describeScope, messagesFor } from '../../pages/messages.ts';
import { CONNECTED_APPS_PATH } from '../../pages/page-paths.ts';
import type { ConnectedApp } from './connected-apps.ts';

export function revokePath(clientId: string): string {
  return `${CONNECTED_APPS_PATH}/${encodeURIComponent(clientId)}/revoke`;
}

export interface ConnectedAppsPage {
  locale: Locale;
  /** The session's CSRF token, echoed by every form. */
  token: string;
  apps: readonly ConnectedApp[];
}

/** The platform is German: times are shown as they were in Germany. */
function formatTime(locale: Locale, at: Date): string {
  return new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Berlin',
  }).format(at);
}

function timeElement(locale: Locale, at: Date) {
  return html`<time datetime="${at.toISOString()}">${formatTime(locale, at)}</time>`;
}

/** Every app the user has allowed access, each with its own revoke form. */
export function sendConnectedAppsPage(reply: FastifyReply, page: ConnectedAppsPage) {
  const messages = messagesFor(page.locale);
  const { connectedApps } = messages;
  const list =
    page.apps.length === 0
      ? html`<p class="muted">${connectedApps.empty}</p>`
      : page.apps.map(
          (app) =>
            html`<section class="app">
              <h2>${app.name}</h2>
              <ul class="scopes">
                ${app.scopes.map((scope) => html`<li>${describeScope(messages, scope)}</li>`)}
              </ul>
              <p class="muted">
                ${connectedApps.grantedAt} ${timeElement(page.locale, app.grantedAt)}
              </p>
              ${
                app.lastUsedAt === null
                  ? ''
                  : html`<p class="muted">
                      ${connectedApps.lastUsedAt} ${timeElement(page.locale, app.lastUsedAt)}
                    </p>`
              }
              ${app.remembered ? html`<p class="muted">${connectedApps.remembered}</p>` : ''}
              <form method="post" action="${revokePath(app.clientId)}">
                ${formTokenField(page.token)}
                <button type="submit">${connectedApps.revoke}</button>
              </form>
            </section>`,
        );
  return sendPage(reply, {
    locale: page.locale,
    title: connectedApps.title,
    body: html`<h1>${connectedApps.title}</h1>
      <p>${connectedApps.intro}</p>
      ${list}
      <form method="post" action="/logout">
        ${formTokenField(page.token)}
        <button type="submit">${connectedApps.logout}</button>
      </form>`,
  });
}

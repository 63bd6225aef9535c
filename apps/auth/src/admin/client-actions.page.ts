import { PREVIOUS_CLIENT_SECRET_GRACE_MS } from '@foodshare/domain';
import { formTokenField } from '../pages/form-token.ts';
import { html, type SafeHtml } from '../pages/html.ts';
import type { Locale } from '../pages/locale.ts';
import { adminPaths, formatDateTime } from './admin.page.ts';
import type { AdminTexts } from './admin-texts.ts';
import type { ClientDetail } from './oauth-clients-admin.service.ts';

function postButton(action: string, csrfToken: string, label: string): SafeHtml {
  return html`<form method="post" action="${action}">
    ${formTokenField(csrfToken)}
    <button type="submit">${label}</button>
  </form>`;
}

/** Activation, secret and deletion: the actions under the edit form. */
export function clientActionsBody(
  locale: Locale,
  texts: AdminTexts,
  client: ClientDetail,
  csrfToken: string,
  now: Date,
): SafeHtml {
  const a = texts.activation;
  const s = texts.secret;
  const previousValid =
    client.previousSecretExpiresAt !== null && client.previousSecretExpiresAt > now;
  const secretSection = client.confidential
    ? html`<p class="muted">${s.regenerateHint(PREVIOUS_CLIENT_SECRET_GRACE_MS / 3_600_000)}</p>
        ${
          previousValid && client.previousSecretExpiresAt
            ? html`<p>
                  ${s.previousValidUntil(formatDateTime(locale, client.previousSecretExpiresAt))}
                </p>
                <p class="muted">${s.endPreviousHint}</p>
                ${postButton(adminPaths.endPreviousSecret(client.id), csrfToken, s.endPrevious)}`
            : null
        }
        ${postButton(adminPaths.secret(client.id), csrfToken, s.regenerate)}`
    : html`<p class="muted">${s.publicHasNone}</p>`;
  return html`<section>
      <h2>${texts.columns.active}</h2>
      <p>${client.active ? a.activeText : a.inactiveText}</p>
      ${
        client.active
          ? postButton(adminPaths.deactivate(client.id), csrfToken, a.deactivate)
          : postButton(adminPaths.activate(client.id), csrfToken, a.activate)
      }
    </section>
    <section>
      <h2>${s.title}</h2>
      ${secretSection}
    </section>
    <section>
      <h2>${texts.deletion.link}</h2>
      <p><a href="${adminPaths.remove(client.id)}">${texts.deletion.link}</a></p>
    </section>`;
}

/** The one view of a new secret, or the explanation that it is gone. */
export function secretBody(
  locale: Locale,
  texts: AdminTexts,
  client: ClientDetail,
  secret: string | null,
  now: Date,
): SafeHtml {
  const s = texts.secret;
  const back = html`<p><a href="${adminPaths.client(client.id)}">${s.copyNow}</a></p>`;
  if (secret === null) {
    return html`<p>${s.gone}</p>
      <p><a href="${adminPaths.client(client.id)}">${texts.editClient(client.clientId)}</a></p>`;
  }
  const previous =
    client.previousSecretExpiresAt !== null && client.previousSecretExpiresAt > now
      ? html`<p>${s.previousValidUntil(formatDateTime(locale, client.previousSecretExpiresAt))}</p>`
      : null;
  return html`<p><strong>${s.shownOnce}</strong></p>
    <p>${s.forClient(client.clientId)}:</p>
    <pre class="secret"><code id="client-secret">${secret}</code></pre>
    ${previous} ${back}`;
}

export function deleteConfirmBody(
  texts: AdminTexts,
  client: ClientDetail,
  csrfToken: string,
): SafeHtml {
  const d = texts.deletion;
  return html`<p>${d.question(client.name)}</p>
    <p>${d.consequence}</p>
    <form method="post" action="${adminPaths.remove(client.id)}">
      ${formTokenField(csrfToken)}
      <button type="submit">${d.confirm}</button>
      <a href="${adminPaths.client(client.id)}">${d.cancel}</a>
    </form>`;
}

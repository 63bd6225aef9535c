import { html, type SafeHtml } from '../pages/html.ts';
import type { Locale } from '../pages/locale.ts';
import { adminPaths, formatDateTime } from './admin.page.ts';
import type { AdminTexts } from './admin-texts.ts';
import type { ClientListItem } from './oauth-clients-admin.service.ts';

function row(locale: Locale, texts: AdminTexts, client: ClientListItem): SafeHtml {
  const regions =
    client.requiredRegions.length === 0
      ? texts.everybody
      : client.requiredRegions.map((region) => region.name).join(', ');
  const updated = texts.updatedByAt(
    client.updatedByName ?? texts.nobody,
    formatDateTime(locale, client.updatedAt),
  );
  return html`<tr>
    <td>
      <a href="${adminPaths.client(client.id)}"><code>${client.clientId}</code></a>
    </td>
    <td>${client.name}</td>
    <td>${client.confidential ? texts.yes : texts.no}</td>
    <td>${client.active ? texts.yes : texts.no}</td>
    <td>${client.scopes.join(' ')}</td>
    <td>${client.grantTypes.join(' ')}</td>
    <td>${regions}</td>
    <td>${updated}</td>
  </tr>`;
}

export function clientListBody(
  locale: Locale,
  texts: AdminTexts,
  clients: readonly ClientListItem[],
): SafeHtml {
  if (clients.length === 0) return html`<p>${texts.noClients}</p>`;
  const c = texts.columns;
  return html`<table>
    <thead>
      <tr>
        <th>${c.clientId}</th>
        <th>${c.name}</th>
        <th>${c.confidential}</th>
        <th>${c.active}</th>
        <th>${c.scopes}</th>
        <th>${c.grantTypes}</th>
        <th>${c.requiredRegions}</th>
        <th>${c.updated}</th>
      </tr>
    </thead>
    <tbody>
      ${clients.map((client) => row(locale, texts, client))}
    </tbody>
  </table>`;
}

import { html, type SafeHtml } from '../pages/html.ts';
import type { Locale } from '../pages/locale.ts';
import { formatDateTime } from './admin.page.ts';
import type { AdminTexts } from './admin-texts.ts';
import type { AuditEntry } from './oauth-clients-admin.service.ts';

function isChange(value: unknown): value is { from: unknown; to: unknown } {
  return typeof value === 'object' && value !== null && 'from' in value && 'to' in value;
}

/** The region ids an audit entry mentions, so their names can be looked up in one query. */
export function auditRegionIds(entries: readonly AuditEntry[]): number[] {
  const ids = new Set<number>();
  for (const { changes } of entries) {
    const value = changes.requiredRegionIds;
    const lists = isChange(value) ? [value.from, value.to] : [value];
    for (const list of lists) {
      if (Array.isArray(list)) list.forEach((id) => typeof id === 'number' && ids.add(id));
    }
  }
  return [...ids];
}

function fieldLabel(texts: AdminTexts, field: string): string {
  const labels: Record<string, string> = {
    name: texts.fields.name,
    confidential: texts.fields.confidential,
    active: texts.columns.active,
    redirectUris: texts.fields.redirectUris,
    postLogoutRedirectUris: texts.fields.postLogoutRedirectUris,
    requirePushedAuthorizationRequests: texts.fields.requirePushedAuthorizationRequests,
    requireDpop: texts.fields.requireDpop,
    backchannelLogoutUri: texts.fields.backchannelLogoutUri,
    logoUri: texts.fields.logoUri,
    clientUri: texts.fields.clientUri,
    policyUri: texts.fields.policyUri,
    tosUri: texts.fields.tosUri,
    scopes: texts.fields.scopes,
    grantTypes: texts.fields.grantTypes,
    requiredRegionIds: texts.fields.requiredRegions,
    secret: texts.secret.title,
    previousSecretExpiresAt: texts.secret.previousValidUntilField,
  };
  return labels[field] ?? field;
}

function formatValue(
  texts: AdminTexts,
  field: string,
  value: unknown,
  regions: ReadonlyMap<number, string>,
): string {
  if (value === null || value === undefined) return texts.none;
  if (typeof value === 'boolean') return value ? texts.yes : texts.no;
  if (Array.isArray(value)) {
    if (value.length === 0) return field === 'requiredRegionIds' ? texts.everybody : texts.none;
    return value
      .map((item) =>
        field === 'requiredRegionIds' && typeof item === 'number'
          ? (regions.get(item) ?? `#${item}`)
          : String(item),
      )
      .join(', ');
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '…';
}

function changesList(
  texts: AdminTexts,
  changes: Record<string, unknown>,
  regions: ReadonlyMap<number, string>,
): SafeHtml {
  const items = Object.entries(changes).map(([field, value]) => {
    const label = fieldLabel(texts, field);
    if (isChange(value)) {
      const from = formatValue(texts, field, value.from, regions);
      const to = formatValue(texts, field, value.to, regions);
      return html`<li>${label}: ${from} ${texts.audit.fromTo} ${to}</li>`;
    }
    return html`<li>${label}: ${formatValue(texts, field, value, regions)}</li>`;
  });
  return items.length === 0
    ? html``
    : html`<ul>
        ${items}
      </ul>`;
}

/** Who changed what when; with `showClient` for the log of all clients. */
export function auditTable(
  locale: Locale,
  texts: AdminTexts,
  entries: readonly AuditEntry[],
  regions: ReadonlyMap<number, string>,
  showClient: boolean,
): SafeHtml {
  const a = texts.audit;
  if (entries.length === 0) return html`<p>${a.empty}</p>`;
  return html`<table>
    <thead>
      <tr>
        <th>${a.when}</th>
        <th>${a.who}</th>
        ${showClient ? html`<th>${a.client}</th>` : null}
        <th>${a.action}</th>
        <th>${a.changes}</th>
      </tr>
    </thead>
    <tbody>
      ${entries.map(
        (entry) =>
          html`<tr>
            <td>${formatDateTime(locale, entry.createdAt)}</td>
            <td>${entry.actorName ?? a.commandLine}</td>
            ${showClient ? html`<td><code>${entry.clientId}</code></td>` : null}
            <td>${a.actions[entry.action] ?? entry.action}</td>
            <td>${changesList(texts, entry.changes, regions)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

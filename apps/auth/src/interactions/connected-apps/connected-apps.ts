import type { AuthServices } from '../../auth-services.ts';
import type { EntityManager } from '@foodshare/domain';
import { clientNames } from '../../clients/registered-clients.ts';

/** One app the user has allowed access, as the page and GET /oauth/grants show it. */
export interface ConnectedApp {
  clientId: string;
  /** Escaped like all text: an administrator-entered name is still not markup. */
  name: string;
  /** What the app may obtain: its live grants' scopes and the remembered consent's. */
  scopes: string[];
  grantedAt: Date;
  /** The last code exchange or refresh; null when only a remembered consent is left. */
  lastUsedAt: Date | null;
  /** Whether the user ticked "remember this choice": the app then skips the consent screen. */
  remembered: boolean;
}

/**
 * Every app the user has allowed access (docs/oauth.md §6.2): each client with a live grant
 * (a refresh family, whether the consent was remembered or not) or a remembered consent, most
 * recently used first. A grant made without "remember" still holds a refresh token for a month:
 * the user must see it to be able to end it.
 */
export async function connectedAppsOf(
  services: AuthServices,
  em: EntityManager,
  userId: number,
): Promise<ConnectedApp[]> {
  const [grants, consents] = await Promise.all([
    services.families.grantsOf(userId),
    services.consents.list(userId),
  ]);
  const byClient = new Map<string, Omit<ConnectedApp, 'name'>>();
  for (const grant of grants) {
    byClient.set(grant.clientId, {
      clientId: grant.clientId,
      scopes: grant.scopes,
      grantedAt: new Date(grant.grantedAt),
      lastUsedAt: new Date(grant.lastUsedAt),
      remembered: false,
    });
  }
  for (const consent of consents) {
    const grant = byClient.get(consent.clientId);
    byClient.set(consent.clientId, {
      clientId: consent.clientId,
      scopes: [...new Set([...(grant?.scopes ?? []), ...consent.scopes])],
      grantedAt: new Date(Math.min(consent.grantedAt, grant?.grantedAt.getTime() ?? Infinity)),
      lastUsedAt: grant?.lastUsedAt ?? null,
      remembered: true,
    });
  }
  const names = await clientNames(em, [...byClient.keys()]);
  const lastActivity = (entry: Omit<ConnectedApp, 'name'>) =>
    (entry.lastUsedAt ?? entry.grantedAt).getTime();
  return [...byClient.values()]
    .sort((a, b) => lastActivity(b) - lastActivity(a))
    .map((entry) => ({ ...entry, name: names.get(entry.clientId) ?? entry.clientId }));
}

import { OAuthClientAuditLogEntity, OAuthRevocationEntity } from '@foodshare/domain';
import type { KeyValueStore } from '@foodshare/server-kit';
import { clientGrantCutoffKey } from '@foodshare/server-kit/oauth-grants';
import type { CreateClientOptions } from '../commands/clients/client-settings.ts';
import { createClientCommand } from '../commands/clients/create.command.ts';
import type { TestOrm } from './fixtures.ts';

/** The CLIENT_SECRET_PEPPER of the clients tests. */
export const pepper = 'pepper-of-this-test';

/** A public web app's settings, with `change` on top. */
export function clientOptions(change: Partial<CreateClientOptions> = {}): CreateClientOptions {
  return {
    clientId: 'web-app',
    name: 'Web app',
    confidential: false,
    redirectUris: ['https://app.example/callback'],
    scopes: ['openid'],
    grantTypes: ['authorization_code'],
    requiredRegionIds: [],
    pepper,
    ...change,
  };
}

/** Registers the client `clientId` ("App <clientId>") as `clients create` does. */
export function registerClient(
  db: TestOrm,
  clientId: string,
  change: Partial<CreateClientOptions> = {},
) {
  return createClientCommand(
    db.em(),
    clientOptions({ clientId, name: `App ${clientId}`, ...change }),
  );
}

export async function auditActions(db: TestOrm, clientId: string): Promise<string[]> {
  const rows = await db
    .em()
    .find(OAuthClientAuditLogEntity, { clientId }, { orderBy: { id: 'asc' } });
  return rows.map((row) => row.action);
}

/** The cutoff as the token checks read it: in the key-value store and in PostgreSQL. */
export async function cutoffOf(db: TestOrm, store: KeyValueStore, clientId: string) {
  const key = clientGrantCutoffKey(clientId);
  const row = await db.em().findOne(OAuthRevocationEntity, { key });
  return { kept: await store.get(key), recorded: row?.value ?? null };
}

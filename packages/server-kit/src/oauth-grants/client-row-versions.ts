import { randomUUID } from 'node:crypto';
import type { KeyValueStore } from '../kv/index.ts';

/**
 * The key whose value changes with every change of a client's row (`announceClientRowChange`).
 * The auth service keeps the rows it read in memory (apps/auth clients/registered-clients.ts, `RememberedClients`)
 * and reads this key in the round trip that ends a client's authentication: a value other than
 * the one it read the row under sends it back to the database.
 */
export function clientRowVersionKey(clientId: string): string {
  return `oauth:client:${clientId}:row-version`;
}

// Far longer than an instance keeps a row. A value that expired reads as null, which differs
// from every value a row was read under but the null of a client never changed.
const VERSION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Tells every auth instance that a client's row changed: called by each writer of the row (the
 * admin page, the CLI) after its transaction committed. A random value, never a counter, so that
 * a version that expired and was set again never equals one a row was read under.
 */
export async function announceClientRowChange(
  store: KeyValueStore,
  clientId: string,
): Promise<void> {
  await store.set(clientRowVersionKey(clientId), randomUUID(), VERSION_TTL_MS);
}

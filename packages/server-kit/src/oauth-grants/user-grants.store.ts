import type { EntityManager } from '@foodshare/domain';
import type { KeyValueStore } from '../kv/index.ts';
import { AccessTokenDenyList } from './access-token-deny-list.store.ts';
import { AuthorizationCodeStore } from './authorization-codes.store.ts';
import { RefreshFamilyStore } from './refresh-families.store.ts';
import { RevocationLedger } from './revocation-ledger.store.ts';

/**
 * Ends every grant the user holds, for a process that is not the auth service (the CLI after a
 * password reset). It ends the codes not yet redeemed, each refresh family, and the access
 * tokens issued from it. They are denied in the same key-value store and PostgreSQL ledger that
 * the token checks read, as revoking an app on "connected apps" does (docs/oauth.md §6.2).
 * Returns the clients whose grants ended. `em` must give a connection of its own.
 */
export function userGrantEnder(
  store: KeyValueStore,
  em: () => EntityManager,
  lifetimes: { REFRESH_TOKEN_TTL_SECONDS: number },
): (userId: number) => Promise<string[]> {
  const refreshTtlMs = lifetimes.REFRESH_TOKEN_TTL_SECONDS * 1000;
  const ledger = new RevocationLedger(store, em);
  const families = new RefreshFamilyStore({
    store,
    denyList: new AccessTokenDenyList(store, ledger),
    ledger,
    refreshTtlMs,
  });
  const codes = new AuthorizationCodeStore(store, refreshTtlMs);
  return async (userId) => {
    // First the codes not yet redeemed: a redemption meanwhile would begin a new family.
    await codes.voidAllCodesOf(userId);
    const ended: string[] = [];
    for (const { clientId } of await families.grantsOf(userId)) {
      const ids = await families.familiesOf(userId, clientId);
      await Promise.all(ids.map((id) => families.revoke(id, { userId, clientId })));
      await families.forgetGrant(userId, clientId);
      ended.push(clientId);
    }
    return ended;
  };
}

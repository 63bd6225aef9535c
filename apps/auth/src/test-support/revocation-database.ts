import { openOrm, type MikroORM } from '@foodshare/domain';
import type { KeyValueStore } from '@foodshare/server-kit';
import { workerDatabase } from '@foodshare/testing';
import { RevocationLedger } from '@foodshare/server-kit/oauth-grants';

/**
 * For store tests: this worker's own database (a copy of the migrated template), where the
 * revocation ledger keeps its rows. Tests take it as the `revocationOrm` fixture.
 */
export async function openRevocationDatabase(): Promise<MikroORM> {
  const { url } = await workerDatabase('auth');
  return openOrm({ url, poolSize: 2 });
}

/** A ledger on `orm`'s database for the store `kv`, on the test's clock. */
export function testLedger(
  orm: MikroORM,
  kv: KeyValueStore,
  now: () => number = Date.now,
): RevocationLedger {
  return new RevocationLedger(kv, () => orm.em.fork(), now);
}

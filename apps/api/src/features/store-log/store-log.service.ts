import { type Actor, type EntityManager, mayReadStoreLog, runSql } from '@foodshare/domain';
import type { StoreLog } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import { loadStoreFacts } from '../../shared/store-facts.repository.ts';
import { storeLogOf, type StoreLogPage, storeLogPageQuery } from './store-log.sql.ts';

/**
 * 404 for an unknown store, 403 unless the caller may read its log (docs/domain.md §3.8). The
 * log is read only for a caller who may read it.
 */
export async function readStoreLog(
  em: EntityManager,
  actor: Actor,
  page: StoreLogPage,
): Promise<StoreLog> {
  const facts = await loadStoreFacts(em, actor, page.storeId);
  if (!facts) throw Problem.notFound('There is no store with this id.');
  if (!mayReadStoreLog(actor, facts)) {
    throw Problem.forbidden(
      'STORE_LOG_FORBIDDEN',
      "Only the store's managers, its region's stores coordination and orga read its log.",
    );
  }
  return storeLogOf(await runSql(em, storeLogPageQuery(page)));
}

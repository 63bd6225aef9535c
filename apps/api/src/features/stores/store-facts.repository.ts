import type { Actor, EntityManager, StoreFacts } from '@foodshare/domain';
import { storeFactsOf, storeFactsQuery } from './stores.sql.ts';
import { runSql } from '../../shared/sql.ts';

/** The facts of `storeFactsQuery` for the store rules, null for an unknown store. */
export async function loadStoreFacts(
  em: EntityManager,
  actor: Actor,
  storeId: number,
): Promise<StoreFacts | null> {
  const [row] = await runSql(em, storeFactsQuery(actor.id, storeId));
  return row ? storeFactsOf(actor, row) : null;
}

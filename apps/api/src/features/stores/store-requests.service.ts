import {
  type Actor,
  type EntityManager,
  mayDecideStoreTeamRequests,
  mayReadStoreTeamRequests,
  type StoreFacts,
  runSql,
} from '@foodshare/domain';
import type { StoreTeamRequestDecision, StoreTeamRequestList } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import { loadStoreFacts } from '../../shared/store-facts.repository.ts';
import {
  acceptTeamRequestQuery,
  declineTeamRequestQuery,
  teamRequestsOf,
  teamRequestsQuery,
} from './stores.sql.ts';
import type { Page } from '../../shared/page-query.ts';
import { isoTimestamp } from '../../shared/sql.ts';

/** 404 for an unknown store, 403 unless `rule` lets the caller act on it. */
async function requireStorePermission(
  em: EntityManager,
  actor: Actor,
  storeId: number,
  rule: (actor: Actor, facts: StoreFacts) => boolean,
): Promise<StoreFacts> {
  return checkStorePermission(actor, await loadStoreFacts(em, actor, storeId), rule);
}

function checkStorePermission(
  actor: Actor,
  facts: StoreFacts | null,
  rule: (actor: Actor, facts: StoreFacts) => boolean,
): StoreFacts {
  if (!facts) throw Problem.notFound('There is no store with this id.');
  if (!rule(actor, facts)) {
    throw Problem.forbidden(
      'STORE_TEAM_REQUESTS_FORBIDDEN',
      "Only the store's managers, its region's stores coordination and orga handle its team requests.",
    );
  }
  return facts;
}

/**
 * The store's facts first; the list only for a caller who may read it.
 */
export async function listTeamRequests(
  em: EntityManager,
  actor: Actor,
  storeId: number,
  page: Page,
): Promise<StoreTeamRequestList> {
  const facts = await loadStoreFacts(em, actor, storeId);
  checkStorePermission(actor, facts, mayReadStoreTeamRequests);
  return teamRequestsOf(await runSql(em, teamRequestsQuery(storeId, page)));
}

export type TeamRequestDecision = StoreTeamRequestDecision['decision'];

export async function decideTeamRequest(
  em: EntityManager,
  actor: Actor,
  storeId: number,
  userId: number,
  decision: TeamRequestDecision,
): Promise<StoreTeamRequestDecision> {
  await requireStorePermission(em, actor, storeId, mayDecideStoreTeamRequests);
  const build = decision === 'accepted' ? acceptTeamRequestQuery : declineTeamRequestQuery;
  const [logged] = await runSql(em, build(actor.id, storeId, userId));
  if (!logged) {
    throw new Problem({
      status: 404,
      code: 'STORE_TEAM_REQUEST_NOT_FOUND',
      title: 'Not Found',
      detail: 'This user has no pending request to join this store team.',
    });
  }
  return { storeId, userId, decision, decidedAt: isoTimestamp(logged.performed_at) };
}

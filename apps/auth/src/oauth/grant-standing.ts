import type { EntityManager } from '@foodshare/domain';
import { NOT_IN_REQUIRED_REGIONS, passesRegionGate } from '../clients/region-gate.ts';
import type { RegisteredClient } from '../clients/registered-clients.ts';
import type { RefreshFamily } from '../stores/refresh-families.store.ts';
import { loadTokenSubject } from './token-subject.ts';

/**
 * Why the user may no longer hold the grant, or null when they may: the account is active, still
 * in one of the client's required regions (docs/spec.md §5.2 rule 8), and no region or admin
 * change happened since the family began (docs/domain.md §5.4). Asked at every refresh, which
 * revokes a grant that fails, and by introspection, which only answers that it is not active.
 */
export async function whyGrantNoLongerHolds(
  em: EntityManager,
  family: RefreshFamily,
  client: RegisteredClient,
): Promise<string | null> {
  const subject = await loadTokenSubject(em, family.userId);
  if (!subject?.active) return 'The user account is not active';
  if (!(await passesRegionGate(em, family.userId, client.requiredRegionIds))) {
    return NOT_IN_REQUIRED_REGIONS;
  }
  // Both times come from PostgreSQL's clock: tokens_valid_after is set by a trigger, and the
  // family's start was read from the database when it began. Node's clock against the
  // database's would let a skew of the hosts (a Node clock ahead by more than the time between
  // a grant and a change) keep a family the change should end. Equal counts as before: revoke.
  if (subject.tokensValidAfter !== null && subject.tokensValidAfter >= family.databaseCreatedAt) {
    return 'The grant was revoked because the user’s regions changed';
  }
  return null;
}

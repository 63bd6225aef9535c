import type { EntityManager } from '@foodshare/domain';
import { NOT_IN_REQUIRED_REGIONS, passesRegionGate } from '../clients/region-gate.ts';
import type { RegisteredClient } from '../clients/registered-clients.ts';
import type { RefreshFamily } from '@foodshare/server-kit/oauth-grants';
import { loadTokenSubject, type TokenSubject } from '../claims/user-claims.ts';

/** Whether the user may still hold a grant (`checkGrantHolder`), and the user as read for it. */
export type GrantHolderCheck =
  { holds: true; subject: TokenSubject } | { holds: false; reason: string };

/**
 * Whether the user may still hold the grant: the account is active, still in one of the client's
 * required regions (docs/spec.md §5.2 rule 8), and no region or admin change happened since the
 * family began (docs/domain.md §5.4). Asked at every refresh, which revokes a grant that fails
 * and otherwise makes the tokens' claims of the `scopes` from the same read of the user.
 */
export async function checkGrantHolder(
  em: EntityManager,
  family: RefreshFamily,
  client: RegisteredClient,
  scopes: readonly string[] = [],
): Promise<GrantHolderCheck> {
  const subject = await loadTokenSubject(em, family.userId, scopes);
  if (!subject?.active) return { holds: false, reason: 'The user account is not active' };
  if (!(await passesRegionGate(em, family.userId, client.requiredRegionIds))) {
    return { holds: false, reason: NOT_IN_REQUIRED_REGIONS };
  }
  // Both times come from PostgreSQL's clock: tokens_valid_after is set by a trigger, and the
  // family's start was read from the database when it began. Node's clock against the
  // database's would let a skew of the hosts (a Node clock ahead by more than the time between
  // a grant and a change) keep a family the change should end. Equal counts as before: revoke.
  if (subject.tokensValidAfter !== null && subject.tokensValidAfter >= family.databaseCreatedAt) {
    return { holds: false, reason: 'The grant was revoked because the user’s regions changed' };
  }
  return { holds: true, subject };
}

/**
 * Why the user may no longer hold the grant, or null when they may (`checkGrantHolder`). Asked by
 * introspection, which only answers that it is not active.
 */
export async function grantHolderRefusal(
  em: EntityManager,
  family: RefreshFamily,
  client: RegisteredClient,
): Promise<string | null> {
  const check = await checkGrantHolder(em, family, client);
  return check.holds ? null : check.reason;
}

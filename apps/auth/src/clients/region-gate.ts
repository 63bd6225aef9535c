import { type EntityManager, runSql } from '@foodshare/domain';

/** The message of docs/spec.md §7.2 when a regional client refuses a user. */
export const NOT_IN_REQUIRED_REGIONS = 'User not in required regions';

// Read at every authorization and refresh of a regional client.
const REGION_MEMBER = `select 1 as found from region_memberships
    where user_id = ? and active and region_id = any(?::int[]) limit 1`;

/**
 * docs/spec.md §5.2 rule 8: a client with required regions admits only active members of at
 * least one of them; a client without any admits everyone. Checked at authorization and again at
 * every refresh, so a user who left the region loses access within one access-token lifetime.
 */
export async function passesRegionGate(
  em: EntityManager,
  userId: number,
  requiredRegionIds: readonly number[],
): Promise<boolean> {
  if (requiredRegionIds.length === 0) return true;
  const rows = await runSql<{ found: number }>(em, {
    sql: REGION_MEMBER,
    params: [userId, `{${requiredRegionIds.join(',')}}`],
  });
  return rows.length > 0;
}

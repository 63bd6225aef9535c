import { type EntityManager, preparedStatement, runPrepared } from '@foodshare/domain';
import type { Userinfo } from '@foodshare/schemas';

interface ClaimsRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  avatar_upload_id: string | null;
  region_ids: number[] | null;
  admin_region_ids: number[] | null;
}

// One query whatever the scopes; the region lists only when `regions` was granted. Both forms
// are prepared statements: userinfo reads them on every call.
const claimsSql = (withRegions: boolean) => `
  select u.id, u.first_name, u.last_name, u.email, u.avatar_upload_id,
         ${
           withRegions
             ? `array(select m.region_id from region_memberships m
                       where m.user_id = u.id and m.active order by m.region_id) as region_ids,
                array(select a.region_id from region_admins a
                       where a.user_id = u.id order by a.region_id) as admin_region_ids`
             : 'null::int[] as region_ids, null::int[] as admin_region_ids'
         }
    from users u
   where u.id = ? and u.activated`;
const CLAIMS = preparedStatement('claims', claimsSql(false));
const CLAIMS_WITH_REGIONS = preparedStatement('claims_with_regions', claimsSql(true));

/** Where the REST service serves an upload; the same origin as the issuer. */
function uploadUrl(issuer: string, uploadId: string): string {
  return `${issuer.replace(/\/+$/, '')}/api/uploads/${uploadId}`;
}

/**
 * The claims of docs/spec.md §2.13 for the granted scopes (docs/domain.md §5.3: `sub` the id
 * as a string, `preferred_username` the first name followed by the id, region ids as strings). Null
 * when the user no longer exists or is not active: their tokens no longer speak for anybody.
 */
export async function loadUserClaims(
  em: EntityManager,
  userId: number,
  scopes: readonly string[],
  issuer: string,
): Promise<Userinfo | null> {
  const statement = scopes.includes('regions') ? CLAIMS_WITH_REGIONS : CLAIMS;
  const [row] = await runPrepared<ClaimsRow>(em, statement, [userId]);
  if (!row) return null;
  const claims: Userinfo = {
    sub: String(row.id),
    preferred_username: `${row.first_name}${row.id}`,
  };
  if (scopes.includes('profile')) {
    claims.name = `${row.first_name} ${row.last_name}`;
    claims.given_name = row.first_name;
    claims.family_name = row.last_name;
    if (row.avatar_upload_id !== null) claims.picture = uploadUrl(issuer, row.avatar_upload_id);
    claims.locale = 'de-DE';
  }
  if (scopes.includes('email')) {
    claims.email = row.email;
    claims.email_verified = true;
  }
  if (scopes.includes('regions')) {
    claims.region_ids = (row.region_ids ?? []).map(String);
    claims.region_ambassador = (row.admin_region_ids ?? []).map(String);
  }
  return claims;
}

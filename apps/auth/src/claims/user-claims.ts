import { type EntityManager, RegionType, runSql } from '@foodshare/domain';
import type { Userinfo } from '@foodshare/schemas';

/** The columns of a user that the claims are made of (`userClaims`). */
export interface UserClaimsRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  avatar_upload_id: string | null;
  /** The three lists are read only when `regions` was granted (`userClaimsColumns`). */
  region_ids: number[] | null;
  admin_region_ids: number[] | null;
  /** Of the units in the two lists above, the working groups (docs/domain.md §1.2: type 7). */
  workgroup_ids: number[] | null;
}

/**
 * The select list of `UserClaimsRow` over `users u`, the region lists only with `regions`: the
 * one read both userinfo and the token endpoint make of the user (the token endpoint adds the
 * columns it checks the user by, docs/oauth.md §5.2).
 */
export function userClaimsColumns(withRegions: boolean): string {
  const regions = withRegions
    ? `array(select m.region_id from region_memberships m
              where m.user_id = u.id and m.active order by m.region_id) as region_ids,
       array(select a.region_id from region_admins a
              where a.user_id = u.id order by a.region_id) as admin_region_ids,
       array(select r.id from regions r
              where r.type = ${RegionType.WorkingGroup}
                and r.id in (select m.region_id from region_memberships m
                              where m.user_id = u.id and m.active
                             union all
                             select a.region_id from region_admins a where a.user_id = u.id)
              order by r.id) as workgroup_ids`
    : 'null::int[] as region_ids, null::int[] as admin_region_ids, null::int[] as workgroup_ids';
  return `u.id, u.first_name, u.last_name, u.email, u.avatar_upload_id, ${regions}`;
}

// One query whatever the scopes; the region lists only when `regions` was granted.
const claimsSql = (withRegions: boolean) =>
  `select ${userClaimsColumns(withRegions)} from users u where u.id = ? and u.activated`;
const CLAIMS = claimsSql(false);
const CLAIMS_WITH_REGIONS = claimsSql(true);

/** The statement that reads `UserClaimsRow` for these scopes: the region lists cost a join. */
export const readsRegions = (scopes: readonly string[]) => scopes.includes('regions');

/** Where the REST service serves an upload; the same origin as the issuer. */
function uploadUrl(issuer: string, uploadId: string): string {
  return `${issuer.replace(/\/+$/, '')}/api/uploads/${uploadId}`;
}

/**
 * docs/oauth.md §5.4: the `groups` claim, stable ids rather than names (a unit may be renamed):
 * `region:<id>` and `workgroup:<id>` for each membership, `region:<id>:ambassador` and
 * `workgroup:<id>:admin` for each unit the user administers, so that a relying party can map a
 * role to a unit's coordinators alone. Sorted, without repeats.
 */
function groupsOf(row: UserClaimsRow): string[] {
  const workgroups = new Set(row.workgroup_ids ?? []);
  const kind = (id: number) => (workgroups.has(id) ? 'workgroup' : 'region');
  const groups = new Set<string>();
  for (const id of row.region_ids ?? []) groups.add(`${kind(id)}:${id}`);
  for (const id of row.admin_region_ids ?? []) {
    groups.add(`${kind(id)}:${id}:${workgroups.has(id) ? 'admin' : 'ambassador'}`);
  }
  return [...groups].sort();
}

/**
 * The claims of docs/spec.md §2.13 for the granted scopes (docs/domain.md §5.3: `sub` the id
 * as a string, `preferred_username` the first name followed by the id, region ids as strings),
 * with `groups` (docs/oauth.md §5.4). The one place that says which claim a scope gives:
 * userinfo answers these, the ID token carries them (docs/oauth.md §4.2).
 */
export function userClaims(
  row: UserClaimsRow,
  scopes: readonly string[],
  issuer: string,
): Userinfo {
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
    claims.groups = groupsOf(row);
  }
  return claims;
}

/**
 * The claims of `userClaims` for userinfo. Null when the user no longer exists or is not
 * active: their tokens no longer speak for anybody.
 */
export async function loadUserClaims(
  em: EntityManager,
  userId: number,
  scopes: readonly string[],
  issuer: string,
): Promise<Userinfo | null> {
  const statement = readsRegions(scopes) ? CLAIMS_WITH_REGIONS : CLAIMS;
  const [row] = await runSql<UserClaimsRow>(em, { sql: statement, params: [userId] });
  return row ? userClaims(row, scopes, issuer) : null;
}

/** What the token endpoint must know of the user before it issues tokens for them. */
export interface TokenSubject {
  active: boolean;
  /**
   * Milliseconds since the epoch (with microsecond fractions): families created before it are
   * revoked. Moved by the database when the user's regions or admin roles change.
   */
  tokensValidAfter: number | null;
  /**
   * PostgreSQL's clock_timestamp() when the row was read, in the same unit: the clock that sets
   * `tokensValidAfter`, so the two compare without the skew between database and Node hosts.
   */
  databaseNow: number;
  /** What the tokens' claims are made of (userClaims), read with the rest: no second statement. */
  claims: UserClaimsRow;
}

// Read on every code exchange and refresh, with the claims of the scopes the tokens carry.
const tokenSubjectSql = (withRegions: boolean) =>
  `select u.activated, (extract(epoch from u.tokens_valid_after) * 1000)::float8 as valid_after_ms,
          (extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms,
          ${userClaimsColumns(withRegions)}
     from users u where u.id = ?`;
const TOKEN_SUBJECT = tokenSubjectSql(false);
const TOKEN_SUBJECT_WITH_REGIONS = tokenSubjectSql(true);

/** The user with the columns of the claims of `scopes` (the region lists only with `regions`). */
export async function loadTokenSubject(
  em: EntityManager,
  userId: number,
  scopes: readonly string[] = [],
): Promise<TokenSubject | null> {
  const statement = readsRegions(scopes) ? TOKEN_SUBJECT_WITH_REGIONS : TOKEN_SUBJECT;
  const [row] = await runSql<
    UserClaimsRow & { activated: boolean; valid_after_ms: number | null; now_ms: number }
  >(em, { sql: statement, params: [userId] });
  if (!row) return null;
  const { activated, valid_after_ms, now_ms, ...claims } = row;
  return { active: activated, tokensValidAfter: valid_after_ms, databaseNow: now_ms, claims };
}

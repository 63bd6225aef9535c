import { type EntityManager, preparedStatement, runPrepared } from '@foodshare/domain';
import { readsRegions, userClaimsColumns, type UserClaimsRow } from '../claims/user-claims.ts';

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
const TOKEN_SUBJECT = preparedStatement('token_subject', tokenSubjectSql(false));
const TOKEN_SUBJECT_WITH_REGIONS = preparedStatement(
  'token_subject_with_regions',
  tokenSubjectSql(true),
);

/** The user with the columns of the claims of `scopes` (the region lists only with `regions`). */
export async function loadTokenSubject(
  em: EntityManager,
  userId: number,
  scopes: readonly string[] = [],
): Promise<TokenSubject | null> {
  const statement = readsRegions(scopes) ? TOKEN_SUBJECT_WITH_REGIONS : TOKEN_SUBJECT;
  const [row] = await runPrepared<
    UserClaimsRow & { activated: boolean; valid_after_ms: number | null; now_ms: number }
  >(em, statement, [userId]);
  if (!row) return null;
  const { activated, valid_after_ms, now_ms, ...claims } = row;
  return { active: activated, tokensValidAfter: valid_after_ms, databaseNow: now_ms, claims };
}

import { type EntityManager, preparedStatement, runPrepared } from '@foodshare/domain';

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
}

// Read on every code exchange and refresh.
const TOKEN_SUBJECT = preparedStatement(
  'token_subject',
  `select activated, (extract(epoch from tokens_valid_after) * 1000)::float8 as valid_after_ms,
          (extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms
     from users where id = ?`,
);

export async function loadTokenSubject(
  em: EntityManager,
  userId: number,
): Promise<TokenSubject | null> {
  const [row] = await runPrepared<{
    activated: boolean;
    valid_after_ms: number | null;
    now_ms: number;
  }>(em, TOKEN_SUBJECT, [userId]);
  return row
    ? { active: row.activated, tokensValidAfter: row.valid_after_ms, databaseNow: row.now_ms }
    : null;
}

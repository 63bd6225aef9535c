import type { EntityManager } from '../db/orm.ts';

/** One revocation as the authorization server's key-value store holds it (OAuthRevocationEntity). */
export interface OAuthRevocationRecord {
  key: string;
  value: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** Rows pruned per write: enough to keep up with expiry, small enough never to stall a write. */
const PRUNE_BATCH = 100;

/**
 * Keeps revocations in PostgreSQL, one statement for any number. A key written again keeps the
 * newer value (a later client cutoff) and the later expiry. Expired rows are pruned on the way,
 * a batch at a time; `skip locked` keeps concurrent writers from waiting on each other.
 */
export async function recordOAuthRevocations(
  em: EntityManager,
  records: readonly OAuthRevocationRecord[],
): Promise<void> {
  if (records.length === 0) return;
  await em.execute(
    `insert into oauth_revocations (key, value, expires_at)
     select r.key, r.value, to_timestamp(r.expires_ms / 1000.0)
       from jsonb_to_recordset(?::jsonb) as r(key text, value text, expires_ms float8)
     on conflict (key) do update
        set value = excluded.value,
            expires_at = greatest(oauth_revocations.expires_at, excluded.expires_at)`,
    [
      JSON.stringify(
        records.map((record) => ({
          key: record.key,
          value: record.value,
          expires_ms: record.expiresAt,
        })),
      ),
    ],
  );
  await em.execute(
    `delete from oauth_revocations where key in (
       select key from oauth_revocations where expires_at < now()
        limit ${PRUNE_BATCH} for update skip locked)`,
  );
}

/** Every revocation still in force, for a key-value store that lost them. */
export async function liveOAuthRevocations(em: EntityManager): Promise<OAuthRevocationRecord[]> {
  const rows = await em.execute<{ key: string; value: string; expires_ms: number }[]>(
    `select key, value, (extract(epoch from expires_at) * 1000)::float8 as expires_ms
       from oauth_revocations where expires_at > now()`,
  );
  return rows.map((row) => ({ key: row.key, value: row.value, expiresAt: row.expires_ms }));
}

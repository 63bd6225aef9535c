import type { EntityManager } from '@foodshare/domain';
import type { KeyValueStore } from '../kv/index.ts';
import { REMEMBERED_CONSENT_TTL_MS } from './consents.store.ts';
import { RevocationLedger } from './revocation-ledger.store.ts';

/**
 * The key of a client's cutoff: grants to the client issued at or before the time it holds
 * (milliseconds since the epoch) are void. Exported so that each place that reads a grant
 * reads it in the same round trip (MGET) as the grant: consents, codes, refresh families, and
 * userinfo with the deny-list entry.
 */
export function clientGrantCutoffKey(clientId: string): string {
  return `oauth:client:${clientId}:grants-void-before`;
}

/** The cutoff a stored value names; null for none (or a value this code did not write). */
export function parseCutoff(raw: string | null): number | null {
  if (raw === null) return null;
  const cutoff = Number(raw);
  return Number.isFinite(cutoff) ? cutoff : null;
}

/**
 * Whether something issued at `issuedAtMs` predates the cutoff. Equal counts as before: an
 * access token's `iat` has whole seconds, so a token of the cutoff's own second is refused
 * rather than a token issued just before the cutoff accepted.
 */
export function issuedBeforeCutoff(issuedAtMs: number, cutoff: number | null): boolean {
  return cutoff !== null && issuedAtMs <= cutoff;
}

/**
 * How far past the database's clock a cutoff reaches. Grants are dated by the clock of the
 * instance that issues them (Date.now()), the cutoff by PostgreSQL's: the margin covers the skew
 * between those hosts, and the requests that read the client row as active just before the
 * change committed and date their grant a moment later. The price: grants to a client
 * reactivated (or a client_id registered again) within the margin are void too, and are asked
 * for again.
 */
export const CLIENT_GRANT_CUTOFF_MARGIN_MS = 5_000;

/**
 * "Every grant issued to this client until now is void", written when a client is deactivated
 * or deleted. Grants live in many places: keyed by user (remembered consents), by family
 * (refresh tokens), or nowhere at all (access tokens are self-contained JWTs). Instead of
 * hunting them down, each place compares its grant's issue time with the client's cutoff when
 * it reads it: the consent lookup, codes, refresh families and access-token verification. One
 * marker thus ends them all at once. A client_id registered again later, or a client
 * reactivated, starts without the old grants: no silently skipped consent screen, no surviving
 * token.
 *
 * The time comes from PostgreSQL (oauth-client-admin.service, `endGrants`), once inside the
 * change's transaction and once after it committed (the later time), each time plus the margin
 * (CLIENT_GRANT_CUTOFF_MARGIN_MS).
 *
 * The marker must outlive every grant it voids, or an old grant would come back when it
 * expires: its lifetime is the longest grant lifetime (a remembered consent, a year, or a
 * refresh token, whichever is longer) plus a day. It is kept in PostgreSQL too
 * (RevocationLedger), so that a restart of the store does not bring the grants back.
 */
export class ClientGrantCutoffs {
  readonly #ledger: RevocationLedger;
  readonly #ttlMs: number;
  readonly #marginMs: number;
  readonly #now: () => number;

  constructor(
    ledger: RevocationLedger,
    options: { ttlMs: number; marginMs?: number; now?: () => number },
  ) {
    this.#ledger = ledger;
    this.#now = options.now ?? Date.now;
    this.#ttlMs = options.ttlMs;
    this.#marginMs = options.marginMs ?? CLIENT_GRANT_CUTOFF_MARGIN_MS;
  }

  /**
   * Voids every grant of the client issued up to `databaseNow` (PostgreSQL's clock, ms) plus
   * the margin; returns the cutoff.
   */
  async endGrants(clientId: string, databaseNow: number): Promise<number> {
    const cutoff = Math.ceil(databaseNow) + this.#marginMs;
    await this.#ledger.write([
      {
        key: clientGrantCutoffKey(clientId),
        value: String(cutoff),
        expiresAt: this.#now() + this.#ttlMs,
      },
    ]);
    return cutoff;
  }
}

const DAY_MS = 24 * 3600 * 1000;

/** The token lifetimes of the auth service's configuration that a cutoff must outlive. */
export interface GrantLifetimes {
  ACCESS_TOKEN_TTL_SECONDS: number;
  REFRESH_TOKEN_TTL_SECONDS: number;
}

/** The cutoffs, kept as long as the longest grant they void lives, plus a day. */
export function clientGrantCutoffs(
  ledger: RevocationLedger,
  lifetimes: GrantLifetimes,
): ClientGrantCutoffs {
  return new ClientGrantCutoffs(ledger, {
    ttlMs:
      Math.max(
        REMEMBERED_CONSENT_TTL_MS,
        lifetimes.REFRESH_TOKEN_TTL_SECONDS * 1000,
        lifetimes.ACCESS_TOKEN_TTL_SECONDS * 1000,
      ) + DAY_MS,
  });
}

/**
 * `endGrants` of a client change (OAuthClientEndOptions) for a process that is not the auth
 * service (the CLI): the same cutoff, in the same key-value store and PostgreSQL ledger, so a
 * client deactivated or deleted there loses its grants as it does on the admin pages. `em` must
 * give a connection of its own: it writes while the change's transaction holds another.
 */
export function clientGrantEnder(
  store: KeyValueStore,
  em: () => EntityManager,
  lifetimes: GrantLifetimes,
): (clientId: string, databaseNow: Date) => Promise<void> {
  const cutoffs = clientGrantCutoffs(new RevocationLedger(store, em), lifetimes);
  return async (clientId, databaseNow) => {
    await cutoffs.endGrants(clientId, databaseNow.getTime());
  };
}

import type { KeyValueStore } from '@foodshare/server-kit';

/**
 * The key of a client's cutoff: grants to the client issued at or before the time it holds
 * (milliseconds since the epoch) are void. Exported so that hot paths can read it in one round
 * trip with their other keys (userinfo reads it with the deny-list entry).
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

/** The cutoff of the client, or null when its grants were never ended. */
export async function readClientGrantCutoff(
  store: KeyValueStore,
  clientId: string,
): Promise<number | null> {
  return parseCutoff(await store.get(clientGrantCutoffKey(clientId)));
}

/**
 * "Every grant issued to this client until now is void": written when a client is deactivated
 * or deleted. Grants live in many places keyed by user (remembered consents), by family (refresh
 * tokens) or nowhere at all (access tokens are self-contained JWTs), so instead of hunting them
 * down, each place compares its grant's issue time with the client's cutoff when it reads it:
 * the consent lookup, codes, refresh families and access-token verification. One marker thus
 * ends them all at once, and a client_id registered again later, or a client reactivated, starts
 * without the old grants (no silently skipped consent screen, no surviving token).
 *
 * The marker must outlive every grant it voids, or an old grant would come back when it
 * expires: its lifetime is the longest grant lifetime (a remembered consent, a year, or a
 * refresh token, whichever is longer) plus a day.
 */
export class ClientGrantCutoffs {
  readonly #store: KeyValueStore;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(store: KeyValueStore, options: { ttlMs: number; now?: () => number }) {
    this.#store = store;
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
  }

  /** Voids every grant of the client issued up to now; returns the cutoff. */
  async endGrants(clientId: string): Promise<number> {
    const cutoff = this.#now();
    await this.#store.set(clientGrantCutoffKey(clientId), String(cutoff), this.#ttlMs);
    return cutoff;
  }

  cutoffOf(clientId: string): Promise<number | null> {
    return readClientGrantCutoff(this.#store, clientId);
  }
}

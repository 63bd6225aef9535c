import { randomBytes } from 'node:crypto';
import {
  liveOAuthRevocations,
  recordOAuthRevocations,
  type EntityManager,
  type OAuthRevocationRecord,
} from '@foodshare/domain';
import type { KeyValueStore } from '../kv/index.ts';

export type RevocationEntry = OAuthRevocationRecord;

/**
 * Present while the key-value store holds every revocation PostgreSQL does. A store that restarted
 * empty (a Redis without persistence) has lost it along with the revocations, which tells the
 * next token check to restore them first. Read in the same round trip as the check's own keys.
 */
export const REVOCATIONS_RESTORED_KEY = 'oauth:revocations:restored';
const RESTORING_KEY = 'oauth:revocations:restoring';
/**
 * The marker's lifetime: a store that lost single keys (an eviction) rather than everything gets
 * them back at the latest this long after.
 */
const RESTORED_TTL_MS = 24 * 3600 * 1000;
const RESTORING_TTL_MS = 60_000;

/**
 * The revocations the token checks read from the key-value store (denied access tokens, revoked
 * families, client grant cutoffs), written to PostgreSQL too, and written back to a store that
 * lost them before it is trusted again: a revoked token stays revoked across a Redis restart.
 */
export class RevocationLedger {
  readonly #store: KeyValueStore;
  readonly #em: () => EntityManager;
  readonly #now: () => number;
  #restoring: Promise<void> | null = null;

  constructor(store: KeyValueStore, em: () => EntityManager, now: () => number = Date.now) {
    this.#store = store;
    this.#em = em;
    this.#now = now;
  }

  /**
   * Writes revocations: to the store first, so that they take effect even when PostgreSQL is out
   * of reach (the caller then sees the error), then to PostgreSQL, which keeps them. An entry
   * already expired needs neither.
   */
  async write(entries: readonly RevocationEntry[]): Promise<void> {
    const now = this.#now();
    const live = entries.filter((entry) => entry.expiresAt > now);
    if (live.length === 0) return;
    await Promise.all(
      live.map((entry) => this.#store.set(entry.key, entry.value, entry.expiresAt - now)),
    );
    await recordOAuthRevocations(this.#em(), live);
  }

  /**
   * Given the marker as a token check read it (REVOCATIONS_RESTORED_KEY): when it is missing,
   * writes every revocation back from PostgreSQL and answers true (the caller reads again).
   * Concurrent checks of this instance share one restoration.
   */
  async restoreIfLost(marker: string | null | undefined): Promise<boolean> {
    if (marker != null) return false;
    this.#restoring ??= this.#restore().finally(() => {
      this.#restoring = null;
    });
    await this.#restoring;
    return true;
  }

  async #restore(): Promise<void> {
    // Should the store restart again while this runs, the entries written so far are gone with
    // this key, and the marker is not set: the next check restores again.
    const attempt = randomBytes(9).toString('base64url');
    await this.#store.set(RESTORING_KEY, attempt, RESTORING_TTL_MS);
    const entries = await liveOAuthRevocations(this.#em());
    const now = this.#now();
    await Promise.all(
      entries
        .filter((entry) => entry.expiresAt > now)
        .map((entry) => this.#store.set(entry.key, entry.value, entry.expiresAt - now)),
    );
    if ((await this.#store.get(RESTORING_KEY)) === attempt) {
      await this.#store.set(REVOCATIONS_RESTORED_KEY, '1', RESTORED_TTL_MS);
    }
  }
}

import type { KeyValueStore } from '../kv/index.ts';
import {
  clientGrantCutoffKey,
  issuedBeforeCutoff,
  parseCutoff,
} from './client-grant-cutoffs.store.ts';
import { readRecord, RecordFormats, writeRecord } from '../kv/index.ts';

/** A consent the user asked us to remember ("remember this choice"). */
export interface RememberedConsent {
  clientId: string;
  /** Every scope the user has allowed this client while ticking "remember". */
  scopes: string[];
  /** When the user last allowed it, in milliseconds since the epoch. */
  grantedAt: number;
}

/** How long a remembered choice holds without being renewed by a new consent. */
export const REMEMBERED_CONSENT_TTL_MS = 365 * 24 * 60 * 60 * 1000;

function consentKey(userId: number, clientId: string): string {
  return `oauth:consent:${userId}:${clientId}`;
}

function indexKey(userId: number): string {
  return `oauth:consents:${userId}`;
}

/**
 * Remembered consent per user and client (docs/design.md §4.8). A request for the same or fewer
 * scopes is covered and skips the consent screen; any scope beyond them shows the screen again. A
 * per-user index, scored by expiry, lets the connected-apps page list them.
 */
export class ConsentStore {
  readonly store: KeyValueStore;
  readonly ttlMs: number;
  private readonly now: () => number;

  constructor(store: KeyValueStore, ttlMs = REMEMBERED_CONSENT_TTL_MS, now = Date.now) {
    this.store = store;
    this.ttlMs = ttlMs;
    this.now = now;
  }

  /**
   * The remembered consent, or null. A consent given before the client's grants were ended
   * (deactivated or deleted, ClientGrantCutoffs) is none: it was given to a client that no longer
   * exists as it was, and a client_id registered again must ask anew.
   */
  async find(userId: number, clientId: string): Promise<RememberedConsent | null> {
    const [value, cutoff] = await this.store.getMany(
      consentKey(userId, clientId),
      clientGrantCutoffKey(clientId),
    );
    if (value == null) return null;
    const consent = readRecord<RememberedConsent>(RecordFormats.consent, value);
    return issuedBeforeCutoff(consent.grantedAt, parseCutoff(cutoff ?? null)) ? null : consent;
  }

  /** True when the user has remembered a consent to this client for every scope asked for. */
  async covers(userId: number, clientId: string, scopes: readonly string[]): Promise<boolean> {
    const consent = await this.find(userId, clientId);
    return consent !== null && scopes.every((scope) => consent.scopes.includes(scope));
  }

  /**
   * Remembers the scopes just allowed, added to those allowed earlier: neither choice was
   * taken back, so a request for either set is covered.
   */
  async remember(userId: number, clientId: string, scopes: readonly string[]) {
    const earlier = await this.find(userId, clientId);
    const now = this.now();
    const consent: RememberedConsent = {
      clientId,
      scopes: [...new Set([...(earlier?.scopes ?? []), ...scopes])],
      grantedAt: now,
    };
    // Indexed first: a crash in between leaves an index entry without a consent (listed as
    // nothing), never a consent the user cannot see and revoke.
    await this.store.addToIndex(indexKey(userId), clientId, now + this.ttlMs, {
      ttlMs: this.ttlMs,
      pruneBelow: now,
    });
    await this.store.set(
      consentKey(userId, clientId),
      writeRecord(RecordFormats.consent, consent),
      this.ttlMs,
    );
    return consent;
  }

  /** The user's remembered consents, most recently granted first. */
  async list(userId: number): Promise<RememberedConsent[]> {
    const members = await this.store.indexMembers(indexKey(userId), this.now());
    const found = await Promise.all(members.map(({ member }) => this.find(userId, member)));
    return found
      .filter((consent): consent is RememberedConsent => consent !== null)
      .sort((a, b) => b.grantedAt - a.grantedAt);
  }

  /** Forgets the consent; true when there was one. */
  async revoke(userId: number, clientId: string): Promise<boolean> {
    const existed = (await this.store.take(consentKey(userId, clientId))) !== null;
    await this.store.removeFromIndex(indexKey(userId), clientId);
    return existed;
  }
}

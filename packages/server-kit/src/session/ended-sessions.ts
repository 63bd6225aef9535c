import { randomBytes } from 'node:crypto';
import type { KeyValueStore } from '../kv/key-value-store.ts';
import { readRecord, RecordFormats, writeRecord } from '../kv/record-format.ts';

const INDEX_KEY = 'session:ended';
const entryKey = (id: string) => `session:ended:${id}`;

/**
 * How long an ended session waits to be taken. The authorization server takes them within
 * seconds; one that ran no instance for longer has nobody to tell in time anyway (its relying
 * parties' sessions are checked against tokens that have moved on).
 */
export const ENDED_SESSION_TTL_MS = 10 * 60_000;

/**
 * Sessions that the REST service ended (its logout), kept for the authorization server: that one
 * tells the applications the user signed in to (OpenID Connect Back-Channel Logout, auth's
 * docs/oauth.md §9.2), which it alone can sign for. The two services share the key-value
 * store already (the sessions themselves); this is one more shared list in it.
 */
export class EndedSessions {
  readonly #store: KeyValueStore;
  readonly #now: () => number;

  constructor(store: KeyValueStore, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** Records that the user's session ended here, now. */
  async record(userId: number): Promise<void> {
    const id = randomBytes(12).toString('base64url');
    const now = this.#now();
    const entry: EndedSession = { userId, endedAt: now };
    // The entry first: an index member without an entry is skipped, never the reverse.
    await this.#store.set(
      entryKey(id),
      writeRecord(RecordFormats.endedSession, entry),
      ENDED_SESSION_TTL_MS,
    );
    await this.#store.addToIndex(INDEX_KEY, id, now + ENDED_SESSION_TTL_MS, {
      ttlMs: ENDED_SESSION_TTL_MS,
      pruneBelow: now,
    });
  }

  /**
   * The sessions that ended since the last call, each with when it ended. Each is handed to
   * exactly one caller, however many instances ask at once: the entry is taken atomically. The
   * end time matters because what the user signs in to afterwards is not part of the sign-out,
   * however late the sign-out is handled.
   */
  async take(): Promise<EndedSession[]> {
    const now = this.#now();
    const members = await this.#store.indexMembers(INDEX_KEY, now);
    if (members.length === 0) return [];
    const ids = members.map(({ member }) => member);
    const taken = await Promise.all(ids.map((id) => this.#store.take(entryKey(id))));
    await this.#store.removeFromIndex(INDEX_KEY, ...ids);
    return taken.flatMap((value) => {
      const ended = value === null ? null : parseEntry(value, now);
      return ended ? [ended] : [];
    });
  }
}

export interface EndedSession {
  userId: number;
  /** When the session ended (ms, the clock of the instance that ended it). */
  endedAt: number;
}

// An entry of a version before the time was recorded holds the user id alone: it ended by now.
// One unreadable entry is skipped, never the batch taken with it.
function parseEntry(value: string, now: number): EndedSession | null {
  let parsed: unknown;
  try {
    parsed = readRecord<unknown>(RecordFormats.endedSession, value);
  } catch {
    return null;
  }
  if (Number.isSafeInteger(parsed)) return { userId: parsed as number, endedAt: now };
  const { userId, endedAt } = (parsed ?? {}) as Partial<EndedSession>;
  return Number.isSafeInteger(userId) && Number.isFinite(endedAt)
    ? { userId: userId as number, endedAt: endedAt as number }
    : null;
}

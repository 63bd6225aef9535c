/**
 * The one interface through which short-lived state goes: sessions, login throttling,
 * and (in the authorization server) codes, consent, refresh families and the deny list.
 * Every operation that must not race is a single atomic call here, so that callers never
 * compose a read and a write that another instance could interleave. Lifetimes are in
 * milliseconds and must be positive.
 *
 * Calls made one after another without awaiting in between reach the store in call order and
 * run in that order: there is one connection, and Redis runs a connection's commands in order.
 * No call waits for the answer of the one before. So a hot path that sends its writes and then
 * a read that must see them pays one round trip, not one per command. Other clients' commands
 * may still land between them, exactly as between awaited calls.
 */
export interface KeyValueStore {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  /**
   * Several values in one round trip (Redis MGET), in the order of the keys; null for each
   * missing one. For hot paths that would otherwise read key after key.
   */
  getMany(...keys: string[]): Promise<(string | null)[]>;
  /** The value and its remaining lifetime, read together. */
  getWithTtl(key: string): Promise<{ value: string; ttlMs: number } | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Writes only when the key does not exist; true when this call wrote it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /**
   * Replaces the value and lifetime of a key that still exists; false (and nothing written)
   * when it does not, so a key deleted concurrently is never brought back.
   */
  setIfPresent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /**
   * Writes a number unless the key holds one at least as large: of concurrent callers the
   * largest value stands, whatever their order. True when this call wrote.
   */
  setIfHigher(key: string, value: number, ttlMs: number): Promise<boolean>;
  /**
   * Writes `key` unless `lease.key` holds a value other than `lease.holder` (another caller holds
   * the lease now), in one atomic step; true when it wrote. A lease that ran out lets it write.
   */
  setUnlessLeasedToOther(
    key: string,
    value: string,
    ttlMs: number,
    lease: { key: string; holder: string },
  ): Promise<boolean>;
  /** Reads and removes in one step: of concurrent callers exactly one sees the value. */
  take(key: string): Promise<string | null>;
  delete(...keys: string[]): Promise<void>;
  /** Remaining lifetime, or null when the key does not exist. */
  ttlMs(key: string): Promise<number | null>;
  /**
   * Sets a new lifetime on a key that still exists; false (and nothing written) when it
   * does not, so a key deleted concurrently is never brought back.
   */
  expire(key: string, ttlMs: number): Promise<boolean>;
  /**
   * Adds `by` (default 1) to a counter that lives for a fixed window from its first
   * increment; later increments do not extend it. A negative `by` on a missing counter
   * does nothing and answers 0.
   */
  increment(key: string, windowMs: number, by?: number): Promise<{ count: number; ttlMs: number }>;
  /**
   * `increment(key, windowMs)` unless the counter `unless.key` has reached `unless.limit`, read
   * and incremented in one atomic step: a place taken only while the guard is below its limit.
   * When it has reached it nothing is written, and the answer is the guard's remaining lifetime.
   */
  incrementUnlessReached(
    key: string,
    windowMs: number,
    unless: { key: string; limit: number },
  ): Promise<{ reached: false; count: number; ttlMs: number } | { reached: true; ttlMs: number }>;
  /**
   * Adds or re-scores a member of a sorted index and drops members scored below
   * `pruneBelow`. The index lives at least `ttlMs` from now (never shortened).
   */
  addToIndex(
    key: string,
    member: string,
    score: number,
    options: { ttlMs: number; pruneBelow: number },
  ): Promise<void>;
  /** Members scored at least `minScore`, lowest score first. */
  indexMembers(key: string, minScore: number): Promise<{ member: string; score: number }[]>;
  removeFromIndex(key: string, ...members: string[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function assertTtl(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`A lifetime must be a positive number of milliseconds, got ${ttlMs}`);
  }
  return Math.ceil(ttlMs);
}

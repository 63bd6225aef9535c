/**
 * The one interface through which short-lived state goes: sessions, login throttling,
 * and (in the authorization server) codes, consent, refresh families and the deny list.
 * Every operation that must not race is a single atomic call here, so that callers never
 * compose a read and a write that another instance could interleave.
 */
export interface KeyValueStore {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Writes only when the key does not exist; true when this call wrote it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Reads and removes in one step: of concurrent callers exactly one sees the value. */
  take(key: string): Promise<string | null>;
  delete(...keys: string[]): Promise<void>;
  /** Remaining lifetime in milliseconds, or null when the key does not exist. */
  ttlMs(key: string): Promise<number | null>;
  /** Extends (or shortens) the lifetime of an existing key; false when there is none. */
  expire(key: string, ttlMs: number): Promise<boolean>;
  /**
   * Adds one to a counter, starting it with the given lifetime when it is new. The
   * lifetime is not extended by later increments, which gives fixed windows for throttling.
   */
  increment(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  /** Set members with a lifetime for the whole set, renewed on every add. */
  addToSet(key: string, member: string, ttlMs: number): Promise<void>;
  removeFromSet(key: string, member: string): Promise<void>;
  setMembers(key: string): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

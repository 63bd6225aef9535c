import { assertTtl, type KeyValueStore } from './key-value-store.ts';

interface Entry {
  value: string | Map<string, number>;
  expiresAt: number;
}

/**
 * An in-process store for the zero-set-up start on one machine. It forgets everything on
 * restart and is invisible to other processes, so it must never back more than one
 * instance. Each method completes without yielding, which makes it as atomic as Redis.
 */
export class MemoryKeyValueStore implements KeyValueStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private liveString(key: string): string | null {
    const value = this.live(key)?.value;
    return typeof value === 'string' ? value : null;
  }

  private sweep(): void {
    for (const key of this.entries.keys()) this.live(key);
  }

  async get(key: string): Promise<string | null> {
    return this.liveString(key);
  }

  async getMany(...keys: string[]): Promise<(string | null)[]> {
    return keys.map((key) => this.liveString(key));
  }

  async getWithTtl(key: string): Promise<{ value: string; ttlMs: number } | null> {
    const entry = this.live(key);
    return entry && typeof entry.value === 'string'
      ? { value: entry.value, ttlMs: entry.expiresAt - this.now() }
      : null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: this.now() + assertTtl(ttlMs) });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const ttl = assertTtl(ttlMs);
    if (this.live(key)) return false;
    this.entries.set(key, { value, expiresAt: this.now() + ttl });
    return true;
  }

  async setIfHigher(key: string, value: number, ttlMs: number): Promise<boolean> {
    const ttl = assertTtl(ttlMs);
    const current = Number(this.liveString(key) ?? Number.NaN);
    if (current >= value) return false;
    this.entries.set(key, { value: String(value), expiresAt: this.now() + ttl });
    return true;
  }

  async setIfPresent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const ttl = assertTtl(ttlMs);
    if (!this.live(key)) return false;
    this.entries.set(key, { value, expiresAt: this.now() + ttl });
    return true;
  }

  async setUnlessLeasedToOther(
    key: string,
    value: string,
    ttlMs: number,
    lease: { key: string; holder: string },
  ): Promise<boolean> {
    const ttl = assertTtl(ttlMs);
    const holder = this.liveString(lease.key);
    if (holder !== null && holder !== lease.holder) return false;
    this.entries.set(key, { value, expiresAt: this.now() + ttl });
    return true;
  }

  async take(key: string): Promise<string | null> {
    const value = this.liveString(key);
    this.entries.delete(key);
    return value;
  }

  async delete(...keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }

  async ttlMs(key: string): Promise<number | null> {
    const entry = this.live(key);
    return entry ? entry.expiresAt - this.now() : null;
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    const ttl = assertTtl(ttlMs);
    const entry = this.live(key);
    if (entry) entry.expiresAt = this.now() + ttl;
    return entry !== undefined;
  }

  async increment(
    key: string,
    windowMs: number,
    by = 1,
  ): Promise<{ count: number; ttlMs: number }> {
    const window = assertTtl(windowMs);
    const entry = this.live(key);
    if (!entry && by < 0) return { count: 0, ttlMs: 0 };
    const count = (entry ? Number(entry.value) : 0) + by;
    const expiresAt = entry?.expiresAt ?? this.now() + window;
    this.entries.set(key, { value: String(count), expiresAt });
    return { count, ttlMs: expiresAt - this.now() };
  }

  async incrementUnlessReached(
    key: string,
    windowMs: number,
    unless: { key: string; limit: number },
  ): Promise<{ reached: false; count: number; ttlMs: number } | { reached: true; ttlMs: number }> {
    const window = assertTtl(windowMs);
    const guard = this.live(unless.key);
    if (guard && typeof guard.value === 'string' && Number(guard.value) >= unless.limit) {
      return { reached: true, ttlMs: guard.expiresAt - this.now() };
    }
    return { reached: false, ...(await this.increment(key, window)) };
  }

  async addToIndex(
    key: string,
    member: string,
    score: number,
    options: { ttlMs: number; pruneBelow: number },
  ): Promise<void> {
    const ttl = assertTtl(options.ttlMs);
    const entry = this.live(key);
    const index = entry && entry.value instanceof Map ? entry.value : new Map<string, number>();
    for (const [name, existing] of index) if (existing < options.pruneBelow) index.delete(name);
    index.set(member, score);
    const expiresAt = Math.max(entry?.expiresAt ?? 0, this.now() + ttl);
    this.entries.set(key, { value: index, expiresAt });
  }

  async indexMembers(key: string, minScore: number): Promise<{ member: string; score: number }[]> {
    const value = this.live(key)?.value;
    if (!(value instanceof Map)) return [];
    return [...value]
      .filter(([, score]) => score >= minScore)
      .map(([member, score]) => ({ member, score }))
      .sort((a, b) => a.score - b.score || (a.member < b.member ? -1 : 1));
  }

  async removeFromIndex(key: string, ...members: string[]): Promise<void> {
    const value = this.live(key)?.value;
    if (value instanceof Map) {
      for (const member of members) value.delete(member);
      // Redis deletes a sorted set with its last member; so does this store.
      if (value.size === 0) this.entries.delete(key);
    }
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }
}

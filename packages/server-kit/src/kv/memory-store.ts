import type { KeyValueStore } from './key-value-store.ts';

interface Entry {
  value: string | Set<string>;
  expiresAt: number;
}

/**
 * An in-process store for the zero-set-up start on one machine. It forgets everything on
 * restart and is invisible to other processes, so it must never back more than one instance.
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

  private sweep(): void {
    for (const key of this.entries.keys()) this.live(key);
  }

  get(key: string): Promise<string | null> {
    const value = this.live(key)?.value;
    return Promise.resolve(typeof value === 'string' ? value : null);
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    return Promise.resolve();
  }

  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.live(key)) return Promise.resolve(false);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    return Promise.resolve(true);
  }

  take(key: string): Promise<string | null> {
    const value = this.live(key)?.value;
    this.entries.delete(key);
    return Promise.resolve(typeof value === 'string' ? value : null);
  }

  delete(...keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
    return Promise.resolve();
  }

  ttlMs(key: string): Promise<number | null> {
    const entry = this.live(key);
    return Promise.resolve(entry ? entry.expiresAt - this.now() : null);
  }

  expire(key: string, ttlMs: number): Promise<boolean> {
    const entry = this.live(key);
    if (entry) entry.expiresAt = this.now() + ttlMs;
    return Promise.resolve(entry !== undefined);
  }

  increment(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }> {
    const entry = this.live(key);
    const count = (entry && typeof entry.value === 'string' ? Number(entry.value) : 0) + 1;
    const expiresAt = entry?.expiresAt ?? this.now() + windowMs;
    this.entries.set(key, { value: String(count), expiresAt });
    return Promise.resolve({ count, ttlMs: expiresAt - this.now() });
  }

  addToSet(key: string, member: string, ttlMs: number): Promise<void> {
    const entry = this.live(key);
    const members = entry && entry.value instanceof Set ? entry.value : new Set<string>();
    members.add(member);
    this.entries.set(key, { value: members, expiresAt: this.now() + ttlMs });
    return Promise.resolve();
  }

  removeFromSet(key: string, member: string): Promise<void> {
    const value = this.live(key)?.value;
    if (value instanceof Set) value.delete(member);
    return Promise.resolve();
  }

  setMembers(key: string): Promise<string[]> {
    const value = this.live(key)?.value;
    return Promise.resolve(value instanceof Set ? [...value] : []);
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
    return Promise.resolve();
  }
}

import { Redis } from 'ioredis';
import { assertTtl, type KeyValueStore } from './key-value-store.ts';

// Each script runs atomically in Redis: no other client's command lands between its steps.
const SCRIPTS = {
  getWithTtl: `
local value = redis.call('GET', KEYS[1])
if not value then return nil end
return { value, redis.call('PTTL', KEYS[1]) }`,
  // The first increment starts the window; a crash can never leave a counter without one.
  incrementInWindow: `
local by = tonumber(ARGV[2])
if by < 0 and redis.call('EXISTS', KEYS[1]) == 0 then return { 0, -2 } end
local count = redis.call('INCRBY', KEYS[1], by)
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`,
  addToIndex: `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`,
} as const;

interface ScriptCommands {
  getWithTtl(key: string): Promise<[string, number] | null>;
  incrementInWindow(key: string, windowMs: number, by: number): Promise<[number, number]>;
  addToIndex(
    key: string,
    member: string,
    score: number,
    ttlMs: number,
    pruneBelow: number,
  ): Promise<number>;
}

export interface RedisStoreOptions {
  url: string;
  /** Namespaces every key, so that tests and several deployments can share one server. */
  keyPrefix?: string;
}

export class RedisKeyValueStore implements KeyValueStore {
  readonly kind = 'redis' as const;
  readonly client: Redis;
  private readonly scripts: ScriptCommands;

  constructor(options: RedisStoreOptions) {
    this.client = new Redis(options.url, {
      keyPrefix: options.keyPrefix ?? '',
      lazyConnect: true,
      maxRetriesPerRequest: 2,
    });
    for (const [name, lua] of Object.entries(SCRIPTS)) {
      this.client.defineCommand(name, { numberOfKeys: 1, lua });
    }
    this.scripts = this.client as unknown as ScriptCommands;
  }

  async connect(): Promise<this> {
    await this.client.connect();
    return this;
  }

  get(key: string): Promise<string | null> {
    return this.client.get(key);
  }

  async getMany(...keys: string[]): Promise<(string | null)[]> {
    return keys.length === 0 ? [] : this.client.mget(...keys);
  }

  async getWithTtl(key: string): Promise<{ value: string; ttlMs: number } | null> {
    const found = await this.scripts.getWithTtl(key);
    return found ? { value: found[0], ttlMs: found[1] } : null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.set(key, value, 'PX', assertTtl(ttlMs));
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.client.set(key, value, 'PX', assertTtl(ttlMs), 'NX')) === 'OK';
  }

  take(key: string): Promise<string | null> {
    return this.client.getdel(key);
  }

  async delete(...keys: string[]): Promise<void> {
    if (keys.length > 0) await this.client.del(...keys);
  }

  async ttlMs(key: string): Promise<number | null> {
    const ttl = await this.client.pttl(key);
    if (ttl === -2) return null;
    // -1: a key without a lifetime, which this store never writes.
    return ttl === -1 ? Number.POSITIVE_INFINITY : ttl;
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    return (await this.client.pexpire(key, assertTtl(ttlMs))) === 1;
  }

  async increment(
    key: string,
    windowMs: number,
    by = 1,
  ): Promise<{ count: number; ttlMs: number }> {
    const [count, ttlMs] = await this.scripts.incrementInWindow(key, assertTtl(windowMs), by);
    return { count, ttlMs: Math.max(ttlMs, 0) };
  }

  async addToIndex(
    key: string,
    member: string,
    score: number,
    options: { ttlMs: number; pruneBelow: number },
  ): Promise<void> {
    await this.scripts.addToIndex(key, member, score, assertTtl(options.ttlMs), options.pruneBelow);
  }

  async indexMembers(key: string, minScore: number): Promise<{ member: string; score: number }[]> {
    const flat = await this.client.zrangebyscore(key, minScore, '+inf', 'WITHSCORES');
    const members: { member: string; score: number }[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      members.push({ member: flat[i] ?? '', score: Number(flat[i + 1]) });
    }
    return members;
  }

  async removeFromIndex(key: string, ...members: string[]): Promise<void> {
    if (members.length > 0) await this.client.zrem(key, ...members);
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    if (this.client.status === 'end' || this.client.status === 'wait') {
      this.client.disconnect();
      return;
    }
    await this.client.quit();
  }
}

import { Redis } from 'ioredis';
import type { KeyValueStore } from './key-value-store.ts';

// INCR and the first PEXPIRE must happen together, or a crash between them leaves a
// counter that never expires (a permanent lockout).
const INCREMENT_WITH_WINDOW = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }
`;

export interface RedisStoreOptions {
  url: string;
  /** Namespaces every key, so that tests and several deployments can share one server. */
  keyPrefix?: string;
}

export class RedisKeyValueStore implements KeyValueStore {
  readonly kind = 'redis' as const;
  readonly client: Redis;

  constructor(options: RedisStoreOptions) {
    this.client = new Redis(options.url, {
      keyPrefix: options.keyPrefix ?? '',
      lazyConnect: true,
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
    });
    this.client.defineCommand('incrementWithWindow', {
      numberOfKeys: 1,
      lua: INCREMENT_WITH_WINDOW,
    });
  }

  async connect(): Promise<this> {
    await this.client.connect();
    return this;
  }

  get(key: string): Promise<string | null> {
    return this.client.get(key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.set(key, value, 'PX', ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.client.set(key, value, 'PX', ttlMs, 'NX')) === 'OK';
  }

  take(key: string): Promise<string | null> {
    return this.client.getdel(key);
  }

  async delete(...keys: string[]): Promise<void> {
    if (keys.length > 0) await this.client.del(...keys);
  }

  async ttlMs(key: string): Promise<number | null> {
    const ttl = await this.client.pttl(key);
    return ttl < 0 ? null : ttl;
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    return (await this.client.pexpire(key, ttlMs)) === 1;
  }

  async increment(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }> {
    const runner = this.client as unknown as {
      incrementWithWindow(key: string, windowMs: number): Promise<[number, number]>;
    };
    const [count, ttlMs] = await runner.incrementWithWindow(key, windowMs);
    return { count, ttlMs };
  }

  async addToSet(key: string, member: string, ttlMs: number): Promise<void> {
    await this.client.multi().sadd(key, member).pexpire(key, ttlMs).exec();
  }

  async removeFromSet(key: string, member: string): Promise<void> {
    await this.client.srem(key, member);
  }

  setMembers(key: string): Promise<string[]> {
    return this.client.smembers(key);
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

import type { KeyValueStore } from './key-value-store.ts';
import { MemoryKeyValueStore } from './memory-store.ts';
import { RedisKeyValueStore } from './redis-store.ts';

export interface OpenStoreOptions {
  redisUrl: string;
  keyPrefix?: string;
  /**
   * Only the zero-set-up start allows this: without a Redis it keeps state in process,
   * which is correct for exactly one instance.
   */
  allowMemoryFallback?: boolean;
  log?: (message: string) => void;
}

export async function openKeyValueStore(options: OpenStoreOptions): Promise<KeyValueStore> {
  const redis = new RedisKeyValueStore({
    url: options.redisUrl,
    ...(options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix }),
  });
  if (!options.allowMemoryFallback) return redis.connect();
  try {
    // One quick attempt: the fallback exists for machines that have no Redis at all.
    redis.client.options.maxRetriesPerRequest = 0;
    redis.client.options.retryStrategy = () => null;
    await redis.connect();
    redis.client.options.maxRetriesPerRequest = 2;
    redis.client.options.retryStrategy = (times: number) => Math.min(times * 200, 2_000);
    return redis;
  } catch {
    redis.client.disconnect();
    options.log?.(
      `No Redis at ${redactUrl(options.redisUrl)}: using the in-process store, which is single-instance only.`,
    );
    return new MemoryKeyValueStore();
  }
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

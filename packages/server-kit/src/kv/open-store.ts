import { Redis } from 'ioredis';
import type { KeyValueStore } from './key-value-store.ts';
import { MemoryKeyValueStore } from './memory-store.ts';
import { RedisKeyValueStore, type RedisTimeouts } from './redis-store.ts';

export interface OpenStoreOptions {
  redisUrl: string;
  keyPrefix?: string;
  timeouts?: RedisTimeouts;
  /**
   * Only the zero-set-up start allows this: without a Redis it keeps state in process,
   * which is correct for exactly one instance.
   */
  allowMemoryFallback?: boolean;
  log?: (message: string) => void;
}

/** One quick connection attempt without retries: does a Redis answer at all? */
async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2_000,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

export async function openKeyValueStore(options: OpenStoreOptions): Promise<KeyValueStore> {
  if (options.allowMemoryFallback && !(await redisAnswers(options.redisUrl))) {
    options.log?.(
      `No Redis at ${redactUrl(options.redisUrl)}: using the in-process store, which is single-instance only.`,
    );
    return new MemoryKeyValueStore();
  }
  return new RedisKeyValueStore({
    url: options.redisUrl,
    ...(options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix }),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
  }).connect();
}

/** The URL with its password masked, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

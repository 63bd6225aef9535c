import type { KeyValueStore } from './key-value-store.ts';
import { MemoryKeyValueStore } from './memory-store.ts';
import { describeRedis, type RedisConnection, redisClient } from './redis-connection.ts';
import { RedisKeyValueStore, type RedisTimeouts } from './redis-store.ts';

export interface OpenStoreOptions {
  redis: RedisConnection;
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
async function redisAnswers(connection: RedisConnection): Promise<boolean> {
  const probe = redisClient(connection, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    sentinelRetryStrategy: () => null,
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
  if (options.allowMemoryFallback && !(await redisAnswers(options.redis))) {
    options.log?.(
      `No Redis at ${describeRedis(options.redis)}: using the in-process store, which is single-instance only.`,
    );
    return new MemoryKeyValueStore();
  }
  return new RedisKeyValueStore({
    ...options.redis,
    ...(options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix }),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
  }).connect();
}

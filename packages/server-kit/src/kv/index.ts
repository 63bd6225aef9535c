export type { KeyValueStore } from './key-value-store.ts';
export { MemoryKeyValueStore } from './memory-store.ts';
export {
  RedisKeyValueStore,
  StateStoreUnavailableError,
  type RedisTimeouts,
} from './redis-store.ts';
export { openKeyValueStore } from './open-store.ts';
export {
  describeRedis,
  parseRedisEndpoints,
  redactUrl,
  redisClient,
  type RedisConnection,
  type RedisEndpoint,
  type RedisSentinelSettings,
} from './redis-connection.ts';
export { readRecord, RecordFormats, writeRecord, type RecordFormat } from './record-format.ts';

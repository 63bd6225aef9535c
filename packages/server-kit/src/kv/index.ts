export type { KeyValueStore } from './key-value-store.ts';
export { MemoryKeyValueStore } from './memory-store.ts';
export {
  RedisKeyValueStore,
  StateStoreUnavailableError,
  type RedisTimeouts,
} from './redis-store.ts';
export { openKeyValueStore, redactUrl } from './open-store.ts';

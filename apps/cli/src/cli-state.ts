import {
  describeRedis,
  parseRedisEndpoints,
  type KeyValueStore,
  type RedisConnection,
  RedisKeyValueStore,
} from '@foodshare/server-kit';
import { CliError, type CliEnvironment } from './cli-context.ts';

// The services' defaults (REDIS_URL, REDIS_SENTINEL_MASTER).
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const DEFAULT_SENTINEL_MASTER = 'mymaster';
// The services' defaults (REDIS_*_TIMEOUT_MS): a command gives up rather than waits for ever.
const TIMEOUTS = { connectMs: 1000, commandMs: 1000 };

/**
 * The services' key-value store (REDIS_URL, REDIS_KEY_PREFIX as they run with), for the commands
 * that end what lives there (sessions, a client's grants) or announce a client change. Opened
 * before the change, so that a Redis out of reach refuses the command instead of leaving a change
 * half done.
 */
export async function withKeyValueStore<T>(
  env: CliEnvironment,
  action: (store: KeyValueStore) => Promise<T>,
): Promise<T> {
  const connection = redisConnection(env);
  const store = new RedisKeyValueStore({
    ...connection,
    keyPrefix: env.REDIS_KEY_PREFIX ?? '',
    timeouts: TIMEOUTS,
  });
  try {
    await store.connect();
    await store.ping();
  } catch (error) {
    // Closed, or its reconnecting in the background would keep the process alive.
    await store.close();
    throw new CliError(
      'STATE_STORE_UNAVAILABLE',
      `Redis at ${describeRedis(connection)} does not answer (${(error as Error).message}): this command ` +
        'ends sessions or grants kept there, or announces a client change there. ' +
        'Set REDIS_URL (and REDIS_KEY_PREFIX) as the services have them.',
    );
  }
  try {
    return await action(store);
  } finally {
    await store.close();
  }
}

/** The services' Redis as their configuration names it: one server, or through Sentinel. */
function redisConnection(env: CliEnvironment): RedisConnection {
  const url = env.REDIS_URL?.trim() || DEFAULT_REDIS_URL;
  const list = env.REDIS_SENTINELS?.trim();
  if (!list) return { url };
  const sentinels = parseRedisEndpoints(list);
  if (!sentinels) {
    throw new CliError(
      'INVALID_INPUT',
      'REDIS_SENTINELS must be host:port pairs separated by commas.',
    );
  }
  return {
    url,
    sentinel: {
      sentinels,
      masterName: env.REDIS_SENTINEL_MASTER?.trim() || DEFAULT_SENTINEL_MASTER,
      password: env.REDIS_SENTINEL_PASSWORD || undefined,
    },
  };
}

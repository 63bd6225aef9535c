import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { KeyValueStore } from '../kv/key-value-store.ts';
import { openKeyValueStore } from '../kv/open-store.ts';
import type { RedisConnection } from '../kv/redis-connection.ts';
import type { RedisTimeouts } from '../kv/redis-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    kv: KeyValueStore;
  }
}

export interface KeyValueStorePluginOptions {
  redis: RedisConnection;
  keyPrefix?: string;
  timeouts?: RedisTimeouts;
  /** A shared store (the one-process start); the app then does not close it. */
  store?: KeyValueStore;
}

export const keyValueStorePlugin = fp(
  async (app: FastifyInstance, options: KeyValueStorePluginOptions) => {
    const store =
      options.store ??
      (await openKeyValueStore({
        redis: options.redis,
        ...(options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix }),
        ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      }));
    app.decorate('kv', store);
    if (!options.store) app.addHook('onClose', () => store.close());
  },
  { name: 'foodshare-key-value-store', fastify: '5.x' },
);

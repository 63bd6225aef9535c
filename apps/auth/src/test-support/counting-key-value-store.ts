import type { KeyValueStore } from '@foodshare/server-kit';

/**
 * The store as it is, with every call of its methods counted: each call is one round trip to
 * Redis (getMany is one MGET whatever the number of keys), so a test can hold a hot path to its
 * budget.
 */
export function countingKeyValueStore(store: KeyValueStore): {
  store: KeyValueStore;
  calls: string[];
} {
  const calls: string[] = [];
  const counting = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        calls.push(String(property));
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: counting, calls };
}

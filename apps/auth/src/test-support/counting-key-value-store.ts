import type { KeyValueStore } from '@foodshare/server-kit';

/**
 * The store as it is, with every call of its methods counted, and the round trips they took:
 * calls made one after another without awaiting in between travel together (KeyValueStore's
 * ordering; the Redis store sends them in one write), so they are one round trip. A test holds
 * a hot path to its budget with these.
 */
export function countingKeyValueStore(store: KeyValueStore): {
  store: KeyValueStore;
  calls: string[];
  /** The calls grouped by round trip, in order. */
  roundTrips: string[][];
} {
  const calls: string[] = [];
  const roundTrips: string[][] = [];
  let current: string[] | null = null;
  const counting = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        calls.push(String(property));
        if (current === null) {
          const trip: string[] = [];
          current = trip;
          roundTrips.push(trip);
          // The synchronous stretch of calls ends when the caller first awaits.
          queueMicrotask(() => {
            current = null;
          });
        }
        current.push(String(property));
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: counting, calls, roundTrips };
}

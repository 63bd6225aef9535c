import type { Pool, PoolClient } from 'pg';

// MikroORM runs every transaction as a Kysely "controlled transaction". Kysely gives that
// transaction's connection back to the pool only after a COMMIT or ROLLBACK that succeeded;
// MikroORM, when the ROLLBACK after a failure fails as well, logs a warning and rethrows the
// first error. A connection that was dropped (a restarted server, pg_terminate_backend) or
// timed out mid-transaction therefore stays checked out for ever, and once that has happened
// as many times as the pool is large, every query waits for good. The same holds for a BEGIN
// that fails: the connection was taken before it and is never given back.
//
// The guard below watches the transaction-ending statements on each pooled client and, when
// one fails, gives the client back to the pool as broken itself, so the pool closes it and
// opens a fresh one the next time a connection is needed.

const BEGIN_OR_ROLLBACK = /^\s*(begin|start\s+transaction|rollback)\b(?!\s+to\b)/i;
const QUERY_READ_TIMEOUT = 'Query read timeout';

interface ClientState {
  /** The pool's release function of the current checkout, called at most once. */
  release?: (error?: Error | boolean) => void;
  checkedOutAt: number;
}

interface PoolWatch {
  /** Clients that are checked out, with the time each was taken. */
  checkedOut: Map<PoolClient, ClientState>;
  /** When a client was last taken from or given back to the pool. */
  lastTurnover: number;
}

const watches = new WeakMap<Pool, PoolWatch>();
const wrappedClients = new WeakSet<PoolClient>();

function sqlOf(config: unknown): string | undefined {
  if (typeof config === 'string') return config;
  const text = (config as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : undefined;
}

function giveBackBroken(watch: PoolWatch, client: PoolClient, error: Error): void {
  const state = watch.checkedOut.get(client);
  if (!state?.release) return;
  const { release } = state;
  state.release = undefined;
  release(error);
}

function wrapQuery(watch: PoolWatch, client: PoolClient): void {
  if (wrappedClients.has(client)) return;
  wrappedClients.add(client);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
    const result = query(...args);
    if (result instanceof Promise) {
      const ending = BEGIN_OR_ROLLBACK.test(sqlOf(args[0]) ?? '');
      result.catch((error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        // A query the server never answered leaves the connection waiting behind it: closing
        // it is the only way to be sure the next checkout does not inherit that wait.
        if (failure.message === QUERY_READ_TIMEOUT) void client.end().catch(() => undefined);
        // Nobody else will give this client back (see above).
        if (ending) giveBackBroken(watch, client, failure);
      });
    }
    return result;
  };
}

/**
 * Installs the guard on a pool (MikroORM's `onPoolCreated`), and starts tracking which clients
 * are checked out, for `poolStalledForMs`.
 */
export function guardPool(pool: Pool): void {
  const watch: PoolWatch = { checkedOut: new Map(), lastTurnover: Date.now() };
  watches.set(pool, watch);
  pool.on('acquire', (client) => {
    watch.lastTurnover = Date.now();
    const state: ClientState = { checkedOutAt: watch.lastTurnover };
    watch.checkedOut.set(client, state);
    wrapQuery(watch, client);
    // pg-pool assigns this checkout's release function right after the 'acquire' event.
    queueMicrotask(() => {
      const release = client.release.bind(client);
      state.release = release;
      client.release = (error?: Error | boolean) => {
        // Given back by the guard already: the pool would throw on a second release.
        if (state.release !== release) return;
        state.release = undefined;
        release(error);
      };
    });
  });
  pool.on('release', (_error, client) => {
    watch.lastTurnover = Date.now();
    watch.checkedOut.delete(client);
  });
}

/**
 * How long the pool has been unable to hand out a connection: every connection is checked
 * out and none was given back for that long. 0 while the pool can serve.
 */
export function poolStalledForMs(pool: Pool): number {
  const watch = watches.get(pool);
  if (!watch) return 0;
  const size = pool.options.max ?? 10;
  if (pool.idleCount > 0 || pool.totalCount < size) return 0;
  return Date.now() - watch.lastTurnover;
}

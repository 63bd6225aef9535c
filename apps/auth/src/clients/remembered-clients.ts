import type { ClientSecretHashes, RegisteredClient } from './registered-clients.ts';

/**
 * How long an instance authenticates a client on the row it read. A change announced by its
 * writer (the admin page, the CLI: `announceClientRowChange`) ends that at once, on every
 * instance; a change made otherwise (an operator's SQL, an instance of 0.1.0) holds within this.
 */
export const CLIENT_ROW_MAX_AGE_MS = 30_000;

/** An active client's row as client authentication reads it (`findActiveClientWithSecrets`). */
export interface ClientRow {
  client: RegisteredClient;
  secrets: ClientSecretHashes;
}

/** A row with the value of the client's version key read before it (`clientRowVersionKey`). */
export interface RecalledClientRow {
  row: ClientRow;
  version: string | null;
}

interface Entry extends RecalledClientRow {
  readAt: number;
}

/**
 * The client rows this instance read, so that a token request reads no row (docs/oauth.md §6.4,
 * docs/benchmarks.md §2.2). Each was read after its version: the version read again in the
 * round trip that ends the client's authentication tells whether the row is still the one
 * stored. Only rows of active clients are kept, so there are never more than the clients.
 */
export class RememberedClients {
  readonly #rows = new Map<string, Entry>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  recall(clientId: string): RecalledClientRow | undefined {
    const entry = this.#rows.get(clientId);
    if (entry === undefined) return undefined;
    if (this.#now() - entry.readAt < CLIENT_ROW_MAX_AGE_MS) return entry;
    this.#rows.delete(clientId);
    return undefined;
  }

  remember(clientId: string, row: ClientRow, version: string | null): void {
    this.#rows.set(clientId, { row, version, readAt: this.#now() });
  }

  forget(clientId: string): void {
    this.#rows.delete(clientId);
  }
}

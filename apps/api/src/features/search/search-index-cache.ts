import type { KeyValueStore } from '@foodshare/server-kit';

/** A user's search index as last sent: its body, that body's ETag and its data's version. */
export interface CachedSearchIndex {
  version: string;
  etag: string;
  body: string;
}

/**
 * How long a cached index may be served while its data's version stands. The version covers
 * every row the index reads; what it cannot see is time passing (events and polls leave the
 * index 14 days after they end), so an entry is rebuilt at least this often.
 */
export const SEARCH_INDEX_CACHE_MS = 60_000;

/**
 * Each user's last built search index, shared by every instance through the key-value store
 * (docs/design.md §3.12). `statement` names the index's SQL text, so that an instance running
 * another version of the query never serves this one's entries.
 */
export class SearchIndexCache {
  readonly #kv: KeyValueStore;
  readonly #prefix: string;

  constructor(kv: KeyValueStore, statement: string) {
    this.#kv = kv;
    this.#prefix = `search-index:${statement}:`;
  }

  async get(userId: number): Promise<CachedSearchIndex | null> {
    const text = await this.#kv.get(`${this.#prefix}${userId}`);
    return text === null ? null : (JSON.parse(text) as CachedSearchIndex);
  }

  async put(userId: number, entry: CachedSearchIndex): Promise<void> {
    await this.#kv.set(`${this.#prefix}${userId}`, JSON.stringify(entry), SEARCH_INDEX_CACHE_MS);
  }
}

import { RecordFormats, type KeyValueStore } from '@foodshare/server-kit';

/**
 * A user's search index as last sent: its body, that body's ETag, its data's version, and the
 * role it was built for (`role:verified`). The role is read before the index's statement, so a
 * role changed in between is in the version but not in the body: comparing it too keeps such an
 * entry from ever being served.
 */
export interface CachedSearchIndex {
  version: string;
  builtFor: string;
  etag: string;
  body: string;
}

/** What a kept index depends on of its reader, as `CachedSearchIndex.builtFor` holds it. */
export function builtFor(actor: { role: number; verified: boolean }): string {
  return `${actor.role}:${actor.verified}`;
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
    if (text === null) return null;
    // `version builtFor etag format` on the first line (0.1.0 wrote no format), then the body
    // as it is: no JSON around the body, so reading an entry never parses or unescapes the tens
    // of kilobytes of the index. A later format adds words at the end of the line.
    const newline = text.indexOf('\n');
    const [version, built, etag] = text.slice(0, newline).split(' ');
    if (newline < 0 || version === undefined || built === undefined || etag === undefined) {
      return null;
    }
    return { version, builtFor: built, etag, body: text.slice(newline + 1) };
  }

  async put(userId: number, { version, builtFor: built, etag, body }: CachedSearchIndex) {
    await this.#kv.set(
      `${this.#prefix}${userId}`,
      `${version} ${built} ${etag} ${RecordFormats.searchIndex.version}\n${body}`,
      SEARCH_INDEX_CACHE_MS,
    );
  }
}

import { hash, randomBytes } from 'node:crypto';
import type { Role } from '@foodshare/domain';
import type { KeyValueStore } from '../kv/key-value-store.ts';
import { readRecord, RecordFormats, writeRecord } from '../kv/record-format.ts';

export interface SessionRecord {
  userId: number;
  /** 32 hex characters, echoed by the client in `X-CSRF-Token`. */
  csrfToken: string;
  rememberMe: boolean;
  /** When the user last proved who they are (seconds since the epoch, as OIDC's auth_time). */
  authTime: number;
  /**
   * The account as last read from PostgreSQL, so that a request needs no statement to know its
   * caller (docs/design.md §3.11). Absent in a record of a release before it.
   */
  account?: AccountFacts;
}

/** What `requireActor` needs of an account that is active, and when it was read. */
export interface AccountFacts {
  role: Role;
  verified: boolean;
  /** ms since the epoch. */
  readAt: number;
}

export type Account = Omit<AccountFacts, 'readAt'>;

/**
 * What the store holds: the record and when it ends (ms since the epoch), so that a look-up
 * is one read. Sessions stored before `expiresAt` existed are renewed at their next use.
 */
interface StoredSession extends SessionRecord {
  expiresAt?: number;
}

export interface Session extends SessionRecord {
  /** The value held by the cookie. Never stored: the store keys sessions by its hash. */
  id: string;
  /** True when this lookup extended the lifetime (a remembered cookie is then re-sent). */
  renewed: boolean;
}

export interface SessionLifetimes {
  /** 24 hours on the reference platform. */
  defaultMs: number;
  /** 30 days with "remember me". */
  rememberMeMs: number;
}

export const DEFAULT_SESSION_LIFETIMES: SessionLifetimes = {
  defaultMs: 24 * 60 * 60 * 1000,
  rememberMeMs: 30 * 24 * 60 * 60 * 1000,
};

/** Oldest sessions beyond this many per user are ended at the next login. */
export const MAX_SESSIONS_PER_USER = 50;

/**
 * Server-side sessions, shared by every instance of both services through the store.
 * Keys are the SHA-256 of the cookie value, so a leaked store dump holds no usable cookie.
 * A per-user index scored by expiry lets "end my other sessions" find every live session.
 */
export class SessionStore {
  private readonly store: KeyValueStore;
  private readonly lifetimes: SessionLifetimes;
  private readonly now: () => number;

  constructor(
    store: KeyValueStore,
    lifetimes: SessionLifetimes = DEFAULT_SESSION_LIFETIMES,
    now: () => number = Date.now,
  ) {
    this.store = store;
    this.lifetimes = lifetimes;
    this.now = now;
  }

  lifetimeMs(rememberMe: boolean): number {
    return rememberMe ? this.lifetimes.rememberMeMs : this.lifetimes.defaultMs;
  }

  /** A new session; `account` as the login just read it (without: the first request reads it). */
  async create(
    userId: number,
    options: { rememberMe: boolean; account?: Account | undefined },
  ): Promise<Session> {
    const id = randomBytes(32).toString('base64url');
    const idHash = hashId(id);
    const now = this.now();
    const record: SessionRecord = {
      userId,
      csrfToken: randomBytes(16).toString('hex'),
      rememberMe: options.rememberMe,
      authTime: Math.floor(now / 1000),
      ...(options.account ? { account: factsOf(options.account, now) } : {}),
    };
    const ttl = this.lifetimeMs(options.rememberMe);
    // Indexed first: a crash in between leaves an index entry that expires, never a
    // session that "end my other sessions" cannot reach.
    await this.index(userId, idHash, now + ttl);
    const stored: StoredSession = { ...record, expiresAt: now + ttl };
    await this.store.set(sessionKey(idHash), writeRecord(RecordFormats.session, stored), ttl);
    await this.evictBeyondLimit(userId, idHash);
    return { id, ...record, renewed: false };
  }

  /**
   * The live session for a cookie value, or null. Sliding: a session in use is extended,
   * at most once per hundredth of its lifetime, so most requests cost one read (a plain GET:
   * the stored record says when it ends). The extension never recreates a session that was
   * ended in the meantime.
   */
  async find(id: string): Promise<Session | null> {
    if (!isWellFormedId(id)) return null;
    const idHash = hashId(id);
    const value = await this.store.get(sessionKey(idHash));
    if (value === null) return null;
    const { expiresAt = 0, ...record } = readRecord<StoredSession>(RecordFormats.session, value);
    const ttl = this.lifetimeMs(record.rememberMe);
    const now = this.now();
    let renewed = false;
    if (ttl - (expiresAt - now) > ttl / 100) {
      const extended: StoredSession = { ...record, expiresAt: now + ttl };
      renewed = await this.store.setIfPresent(
        sessionKey(idHash),
        writeRecord(RecordFormats.session, extended),
        ttl,
      );
      if (renewed) await this.index(record.userId, idHash, now + ttl);
    }
    return { id, ...record, renewed };
  }

  async destroy(session: Pick<Session, 'id' | 'userId'>): Promise<void> {
    const idHash = hashId(session.id);
    await this.store.delete(sessionKey(idHash));
    await this.store.removeFromIndex(indexKey(session.userId), idHash);
  }

  /** Ends every session of the user but the one given (after a role change, a new password). */
  async destroyOthers(userId: number, keepId?: string): Promise<number> {
    const keep = keepId === undefined ? undefined : hashId(keepId);
    const others = (await this.store.indexMembers(indexKey(userId), this.now()))
      .map(({ member }) => member)
      .filter((idHash) => idHash !== keep);
    await this.forget(userId, others);
    return others.length;
  }

  /** Keeps `account`, read from PostgreSQL just now, in the session (if it still lives). */
  async rememberAccount(sessionId: string, account: Account, readAt = this.now()): Promise<void> {
    await this.rewriteAccount(hashId(sessionId), account, readAt);
  }

  /**
   * After a write to a user's role, verification or activation: every live session of the user
   * carries the account as it is now, or ends when it is no longer active (`null`).
   */
  async accountChanged(
    userId: number,
    account: Account | null,
    readAt = this.now(),
  ): Promise<void> {
    if (!account) {
      await this.destroyOthers(userId);
      return;
    }
    const live = await this.store.indexMembers(indexKey(userId), this.now());
    await Promise.all(live.map(({ member }) => this.rewriteAccount(member, account, readAt)));
  }

  /**
   * The record is rewritten as it is, with its lifetime; a session ended meanwhile stays ended.
   * `readAt` is when the account was read, taken before the read: facts read later stay, so a
   * request that read the account before a change cannot write the old facts over the new ones.
   */
  private async rewriteAccount(idHash: string, account: Account, readAt: number): Promise<void> {
    const key = sessionKey(idHash);
    const found = await this.store.getWithTtl(key);
    if (!found || found.ttlMs <= 0) return;
    const stored = readRecord<StoredSession>(RecordFormats.session, found.value);
    const storedReadAt = stored.account?.readAt;
    if (typeof storedReadAt === 'number' && storedReadAt > readAt) return;
    const rewritten: StoredSession = { ...stored, account: factsOf(account, readAt) };
    await this.store.setIfPresent(key, writeRecord(RecordFormats.session, rewritten), found.ttlMs);
  }

  private async index(userId: number, idHash: string, expiresAt: number): Promise<void> {
    await this.store.addToIndex(indexKey(userId), idHash, expiresAt, {
      ttlMs: expiresAt - this.now(),
      pruneBelow: this.now(),
    });
  }

  /**
   * Ends the user's sessions that end soonest beyond the limit, never the one just made (`kept`):
   * a new session without "remember me" ends before a user's remembered ones, and would
   * otherwise be ended at its own login.
   */
  private async evictBeyondLimit(userId: number, kept: string): Promise<void> {
    const others = (await this.store.indexMembers(indexKey(userId), this.now())).filter(
      ({ member }) => member !== kept,
    );
    const excess = others.length + 1 - MAX_SESSIONS_PER_USER;
    if (excess > 0)
      await this.forget(
        userId,
        others.slice(0, excess).map(({ member }) => member),
      );
  }

  private async forget(userId: number, hashes: string[]): Promise<void> {
    await this.store.delete(...hashes.map(sessionKey));
    await this.store.removeFromIndex(indexKey(userId), ...hashes);
  }
}

function factsOf(account: Account, readAt: number): AccountFacts {
  return { role: account.role, verified: account.verified, readAt };
}

function hashId(id: string): string {
  return hash('sha256', id, 'base64url');
}

function sessionKey(idHash: string): string {
  return `session:${idHash}`;
}

function indexKey(userId: number): string {
  return `user-sessions:${userId}`;
}

function isWellFormedId(id: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(id);
}

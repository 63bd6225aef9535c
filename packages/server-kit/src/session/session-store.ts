import { createHash, randomBytes } from 'node:crypto';
import type { KeyValueStore } from '../kv/key-value-store.ts';

export interface SessionRecord {
  userId: number;
  /** 32 hex characters, echoed by the client in `X-CSRF-Token`. */
  csrfToken: string;
  rememberMe: boolean;
  /** When the user last proved who they are (seconds since the epoch, as OIDC's auth_time). */
  authTime: number;
  /** When the lifetime was last extended (milliseconds); limits writes on the hot path. */
  renewedAt: number;
}

export interface Session extends SessionRecord {
  /** The value held by the cookie. Never stored: the store keys sessions by its hash. */
  id: string;
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

/**
 * Server-side sessions, shared by every instance of both services through the store.
 * Keys are the SHA-256 of the cookie value, so a leaked store dump holds no usable cookie.
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

  async create(userId: number, options: { rememberMe: boolean }): Promise<Session> {
    const id = randomBytes(32).toString('base64url');
    const now = this.now();
    const record: SessionRecord = {
      userId,
      csrfToken: randomBytes(16).toString('hex'),
      rememberMe: options.rememberMe,
      authTime: Math.floor(now / 1000),
      renewedAt: now,
    };
    const ttl = this.lifetimeMs(options.rememberMe);
    await this.store.set(sessionKey(id), JSON.stringify(record), ttl);
    await this.store.addToSet(userSessionsKey(userId), hashId(id), this.lifetimes.rememberMeMs);
    return { id, ...record };
  }

  /**
   * The live session for a cookie value, or null. Sliding: a session in use is extended,
   * but at most once per hundredth of its lifetime, so most requests cost one read.
   */
  async find(id: string): Promise<Session | null> {
    if (!isWellFormedId(id)) return null;
    const raw = await this.store.get(sessionKey(id));
    if (raw === null) return null;
    const record = JSON.parse(raw) as SessionRecord;
    const ttl = this.lifetimeMs(record.rememberMe);
    const now = this.now();
    if (now - record.renewedAt > ttl / 100) {
      record.renewedAt = now;
      await this.store.set(sessionKey(id), JSON.stringify(record), ttl);
    }
    return { id, ...record };
  }

  async destroy(session: Pick<Session, 'id' | 'userId'>): Promise<void> {
    await this.store.delete(sessionKey(session.id));
    await this.store.removeFromSet(userSessionsKey(session.userId), hashId(session.id));
  }

  /** Ends every session of the user but the one given (after a role change, a new password). */
  async destroyOthers(userId: number, keepId?: string): Promise<number> {
    const keep = keepId === undefined ? undefined : hashId(keepId);
    const hashes = (await this.store.setMembers(userSessionsKey(userId))).filter(
      (hash) => hash !== keep,
    );
    await this.store.delete(...hashes.map((hash) => `session:${hash}`));
    for (const hash of hashes) await this.store.removeFromSet(userSessionsKey(userId), hash);
    return hashes.length;
  }
}

function hashId(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

function sessionKey(id: string): string {
  return `session:${hashId(id)}`;
}

function userSessionsKey(userId: number): string {
  return `user-sessions:${userId}`;
}

function isWellFormedId(id: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(id);
}

import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Role } from '@foodshare/domain';
import { MemoryKeyValueStore } from '../kv/memory-store.ts';
import { MAX_SESSIONS_PER_USER, SessionStore } from './session-store.ts';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const lifetimes = { defaultMs: 10_000, rememberMeMs: 100_000 };

function setup() {
  const time = clock();
  const store = new MemoryKeyValueStore(time.now);
  return { time, store, sessions: new SessionStore(store, lifetimes, time.now) };
}

describe('SessionStore', () => {
  it('creates unguessable ids and 32-hex CSRF tokens, and finds the session again', async () => {
    const { sessions } = setup();
    const a = await sessions.create(1, { rememberMe: false });
    const b = await sessions.create(1, { rememberMe: false });
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.csrfToken).toMatch(/^[0-9a-f]{32}$/);
    expect(await sessions.find(a.id)).toMatchObject({ userId: 1, csrfToken: a.csrfToken });
  });

  it('keys sessions by the hash of the cookie value, never the value itself', async () => {
    const { store, sessions } = setup();
    const session = await sessions.create(7, { rememberMe: false });
    const storedUnder = hash('sha256', session.id, 'base64url');
    expect(await store.get(`session:${session.id}`)).toBeNull();
    expect(JSON.parse((await store.get(`session:${storedUnder}`)) ?? 'null')).toMatchObject({
      userId: 7,
    });
  });

  it('expires unused sessions and slides used ones, saying when it renewed', async () => {
    const { time, sessions } = setup();
    const used = await sessions.create(1, { rememberMe: false });
    const idle = await sessions.create(2, { rememberMe: false });
    expect((await sessions.find(used.id))?.renewed).toBe(false);
    for (let i = 0; i < 5; i++) {
      time.advance(4_000);
      expect((await sessions.find(used.id))?.renewed).toBe(true);
    }
    expect(await sessions.find(idle.id)).toBeNull();
  });

  it('finds a session in use with one read of the store', async () => {
    const time = clock();
    const calls: string[] = [];
    class CountingStore extends MemoryKeyValueStore {
      override async get(key: string) {
        calls.push('get');
        return super.get(key);
      }
      override async setIfPresent(key: string, value: string, ttlMs: number) {
        calls.push('setIfPresent');
        return super.setIfPresent(key, value, ttlMs);
      }
    }
    const sessions = new SessionStore(new CountingStore(time.now), lifetimes, time.now);
    const session = await sessions.create(4, { rememberMe: false });
    calls.length = 0;
    time.advance(50);
    expect((await sessions.find(session.id))?.renewed).toBe(false);
    expect(calls).toEqual(['get']);
    // Past a hundredth of its lifetime it is extended, by a write that needs the key to exist.
    time.advance(200);
    expect((await sessions.find(session.id))?.renewed).toBe(true);
    expect(calls).toEqual(['get', 'get', 'setIfPresent']);
  });

  it('keeps a remembered session for its longer lifetime', async () => {
    const { time, sessions } = setup();
    const remembered = await sessions.create(1, { rememberMe: true });
    time.advance(50_000);
    expect(await sessions.find(remembered.id)).not.toBeNull();
  });

  it('never brings back a session ended while a request was renewing it', async () => {
    const time = clock();
    let endConcurrently: (() => Promise<void>) | undefined;
    class RacingStore extends MemoryKeyValueStore {
      override async get(key: string) {
        const found = await super.get(key);
        await endConcurrently?.();
        return found;
      }
    }
    const sessions = new SessionStore(new RacingStore(time.now), lifetimes, time.now);
    const session = await sessions.create(3, { rememberMe: false });
    time.advance(5_000);
    endConcurrently = () => sessions.destroy(session);
    expect((await sessions.find(session.id))?.renewed).toBe(false);
    endConcurrently = undefined;
    expect(await sessions.find(session.id)).toBeNull();
  });

  it('ends every other session of a user and keeps the current one', async () => {
    const { sessions } = setup();
    const current = await sessions.create(5, { rememberMe: false });
    const phone = await sessions.create(5, { rememberMe: true });
    const laptop = await sessions.create(5, { rememberMe: false });
    const someoneElse = await sessions.create(6, { rememberMe: false });
    expect(await sessions.destroyOthers(5, current.id)).toBe(2);
    expect(await sessions.find(current.id)).not.toBeNull();
    expect(await sessions.find(phone.id)).toBeNull();
    expect(await sessions.find(laptop.id)).toBeNull();
    expect(await sessions.find(someoneElse.id)).not.toBeNull();
  });

  it('still reaches a remembered session kept alive by use beyond its first lifetime', async () => {
    const { time, sessions } = setup();
    const kept = await sessions.create(8, { rememberMe: true });
    for (let i = 0; i < 30; i++) {
      time.advance(10_000);
      expect(await sessions.find(kept.id)).not.toBeNull();
    }
    expect(await sessions.destroyOthers(8)).toBe(1);
    expect(await sessions.find(kept.id)).toBeNull();
  });

  it('forgets ended sessions in the index and caps the sessions of one user', async () => {
    const { time, store, sessions } = setup();
    const first = await sessions.create(9, { rememberMe: false });
    time.advance(20_000);
    const created = [];
    for (let i = 0; i < MAX_SESSIONS_PER_USER + 2; i++) {
      time.advance(1);
      created.push(await sessions.create(9, { rememberMe: false }));
    }
    const indexed = await store.indexMembers('user-sessions:9', 0);
    expect(indexed).toHaveLength(MAX_SESSIONS_PER_USER);
    expect(await sessions.find(first.id)).toBeNull();
    expect(await sessions.find(created[0]?.id ?? '')).toBeNull();
    expect(await sessions.find(created[1]?.id ?? '')).toBeNull();
    expect(await sessions.find(created.at(-1)?.id ?? '')).not.toBeNull();
  });

  it('never ends the session just made to keep the limit, even when it ends soonest', async () => {
    const { time, sessions } = setup();
    const remembered = [];
    for (let i = 0; i < MAX_SESSIONS_PER_USER; i++) {
      time.advance(1);
      remembered.push(await sessions.create(10, { rememberMe: true }));
    }
    const fresh = await sessions.create(10, { rememberMe: false });
    expect(await sessions.find(fresh.id)).not.toBeNull();
    expect(await sessions.find(remembered[0]!.id)).toBeNull();
    expect(await sessions.find(remembered[1]!.id)).not.toBeNull();
  });

  it('ignores malformed ids without a store lookup', async () => {
    const time = clock();
    let lookups = 0;
    class CountingStore extends MemoryKeyValueStore {
      override async get(key: string) {
        lookups++;
        return super.get(key);
      }
    }
    const sessions = new SessionStore(new CountingStore(time.now), lifetimes, time.now);
    expect(await sessions.find('../../etc/passwd')).toBeNull();
    expect(await sessions.find('')).toBeNull();
    expect(lookups).toBe(0);
  });
});

describe('SessionStore: the account facts a session carries', () => {
  const foodsaver = { role: Role.Foodsaver, verified: true };
  const ambassador = { role: Role.Ambassador, verified: true };

  it('keeps the account read at login, with when it was read', async () => {
    const { time, sessions } = setup();
    const session = await sessions.create(1, { rememberMe: false, account: foodsaver });
    expect((await sessions.find(session.id))?.account).toEqual({
      ...foodsaver,
      readAt: time.now(),
    });
    const unread = await sessions.create(1, { rememberMe: false });
    expect((await sessions.find(unread.id))?.account).toBeUndefined();
  });

  it('rewrites one session’s account with its lifetime and token, never bringing it back', async () => {
    const { time, store, sessions } = setup();
    const session = await sessions.create(2, { rememberMe: false, account: foodsaver });
    const key = `session:${hash('sha256', session.id, 'base64url')}`;
    time.advance(3_000);
    const ttl = await store.ttlMs(key);
    await sessions.rememberAccount(session.id, ambassador);
    expect(await store.ttlMs(key)).toBe(ttl);
    expect(await sessions.find(session.id)).toMatchObject({
      csrfToken: session.csrfToken,
      account: { ...ambassador, readAt: time.now() },
    });
    await sessions.destroy(session);
    await sessions.rememberAccount(session.id, ambassador);
    expect(await store.get(key)).toBeNull();
  });

  it('gives every live session of the user a changed account, and ends them when it is gone', async () => {
    const { sessions } = setup();
    const phone = await sessions.create(3, { rememberMe: true, account: foodsaver });
    const laptop = await sessions.create(3, { rememberMe: false });
    const someoneElse = await sessions.create(4, { rememberMe: false, account: foodsaver });
    await sessions.accountChanged(3, ambassador);
    for (const session of [phone, laptop]) {
      expect((await sessions.find(session.id))?.account).toMatchObject(ambassador);
    }
    expect((await sessions.find(someoneElse.id))?.account).toMatchObject(foodsaver);
    await sessions.accountChanged(3, null);
    expect(await sessions.find(phone.id)).toBeNull();
    expect(await sessions.find(laptop.id)).toBeNull();
    expect(await sessions.find(someoneElse.id)).not.toBeNull();
  });

  it('keeps facts read later over facts read before them, whichever is written last', async () => {
    const { time, sessions } = setup();
    const session = await sessions.create(6, { rememberMe: false, account: foodsaver });
    const readBeforeTheChange = time.now();
    time.advance(1_000);
    await sessions.accountChanged(6, ambassador);
    // A request that read the account before the change writes its facts after it.
    await sessions.rememberAccount(session.id, foodsaver, readBeforeTheChange);
    expect((await sessions.find(session.id))?.account).toMatchObject(ambassador);
  });

  it('reads a record of the release before the facts, and keeps a later release’s fields', async () => {
    const { store, sessions } = setup();
    const session = await sessions.create(5, { rememberMe: false });
    const key = `session:${hash('sha256', session.id, 'base64url')}`;
    const stored = JSON.parse((await store.get(key))!) as Record<string, unknown>;
    // As the previous release wrote it: format 1, no account.
    expect(stored).not.toHaveProperty('account');
    await store.set(key, JSON.stringify({ ...stored, later: 'kept' }), 10_000);
    await sessions.rememberAccount(session.id, foodsaver);
    expect(JSON.parse((await store.get(key))!)).toMatchObject({
      later: 'kept',
      v: 1,
      account: foodsaver,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { MemoryKeyValueStore } from '../kv/memory-store.ts';
import { SessionStore } from './session-store.ts';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('SessionStore', () => {
  const lifetimes = { defaultMs: 10_000, rememberMeMs: 100_000 };

  it('creates unguessable ids and 32-hex CSRF tokens, and finds the session again', async () => {
    const sessions = new SessionStore(new MemoryKeyValueStore(), lifetimes);
    const a = await sessions.create(1, { rememberMe: false });
    const b = await sessions.create(1, { rememberMe: false });
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.csrfToken).toMatch(/^[0-9a-f]{32}$/);
    expect(await sessions.find(a.id)).toMatchObject({ userId: 1, csrfToken: a.csrfToken });
  });

  it('does not store the cookie value itself', async () => {
    const store = new MemoryKeyValueStore();
    const sessions = new SessionStore(store, lifetimes);
    const session = await sessions.create(7, { rememberMe: false });
    expect(await store.get(`session:${session.id}`)).toBeNull();
  });

  it('expires unused sessions and slides used ones', async () => {
    const time = clock();
    const store = new MemoryKeyValueStore(time.now);
    const sessions = new SessionStore(store, lifetimes, time.now);
    const used = await sessions.create(1, { rememberMe: false });
    const idle = await sessions.create(2, { rememberMe: false });
    for (let i = 0; i < 5; i++) {
      time.advance(4_000);
      expect(await sessions.find(used.id)).not.toBeNull();
    }
    expect(await sessions.find(idle.id)).toBeNull();
  });

  it('keeps a remembered session for its longer lifetime', async () => {
    const time = clock();
    const sessions = new SessionStore(new MemoryKeyValueStore(time.now), lifetimes, time.now);
    const remembered = await sessions.create(1, { rememberMe: true });
    time.advance(50_000);
    expect(await sessions.find(remembered.id)).not.toBeNull();
  });

  it('ends every other session of a user and keeps the current one', async () => {
    const sessions = new SessionStore(new MemoryKeyValueStore(), lifetimes);
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

  it('ignores malformed ids without a store lookup', async () => {
    const sessions = new SessionStore(new MemoryKeyValueStore(), lifetimes);
    expect(await sessions.find('../../etc/passwd')).toBeNull();
    expect(await sessions.find('')).toBeNull();
  });
});

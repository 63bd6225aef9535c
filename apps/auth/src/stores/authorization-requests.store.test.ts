import { type KeyValueStore, MemoryKeyValueStore, RedisKeyValueStore } from '@foodshare/server-kit';
import { workerRedis } from '@foodshare/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthorizationRequestStore } from './authorization-requests.store.ts';

const implementations: [string, () => Promise<KeyValueStore>][] = [
  ['redis', () => new RedisKeyValueStore(workerRedis('authorization-requests')).connect()],
  ['memory', () => Promise.resolve(new MemoryKeyValueStore())],
];

describe.each(implementations)('parked authorization requests on %s', (_name, open) => {
  let kv: KeyValueStore;
  let requests: AuthorizationRequestStore;
  const request = {
    clientId: 'app',
    redirectUri: 'https://app.example/cb',
    state: 's',
    scopes: ['openid'],
    codeChallenge: null,
    nonce: null,
    prompt: [],
    maxAge: null,
  };

  beforeEach(async () => {
    kv = await open();
    requests = new AuthorizationRequestStore(kv);
  });
  afterEach(async () => {
    await kv.close();
  });

  it('parks a request under a fresh random id and finds it again', async () => {
    const a = await requests.park(request);
    const b = await requests.park(request);
    expect(a.id).not.toBe(b.id);
    expect(await requests.find(a.id)).toEqual({ ...request, id: a.id, loginSession: null });
  });

  it('finds nothing for a malformed or unknown id', async () => {
    expect(await requests.find('../../etc')).toBeNull();
    expect(await requests.find('A'.repeat(32))).toBeNull();
  });

  it('records the login made for it, keeping its lifetime', async () => {
    const parked = await requests.park(request);
    const updated = await requests.recordLogin(parked.id, 'session-id');
    expect(updated?.loginSession).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(updated?.loginSession).not.toBe('session-id');
    expect((await requests.find(parked.id))?.loginSession).toBe(updated?.loginSession);
    expect(await kv.ttlMs(`oauth:authorization-request:${parked.id}`)).toBeGreaterThan(0);
  });

  it('finishes a request once: of concurrent finishers exactly one wins', async () => {
    const parked = await requests.park(request);
    const results = await Promise.all(Array.from({ length: 10 }, () => requests.finish(parked.id)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await requests.find(parked.id)).toBeNull();
  });
});

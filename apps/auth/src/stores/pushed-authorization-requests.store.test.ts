import { MemoryKeyValueStore } from '@foodshare/server-kit';
import { describe, expect, it } from 'vitest';
import {
  PUSHED_REQUEST_TTL_SECONDS,
  PushedAuthorizationRequestStore,
} from './pushed-authorization-requests.store.ts';

describe('PushedAuthorizationRequestStore', () => {
  const request = { clientId: 'client', params: { scope: 'openid' } };

  it('hands a pushed request out once, and not after its lifetime', async () => {
    let now = 1_800_000_000_000;
    const kv = new MemoryKeyValueStore(() => now);
    const store = new PushedAuthorizationRequestStore(kv);
    const once = await store.push(request);
    expect(once.expiresIn).toBe(PUSHED_REQUEST_TTL_SECONDS);
    expect(await store.take(once.requestUri)).toEqual(request);
    expect(await store.take(once.requestUri)).toBeNull();

    const late = await store.push(request);
    now += PUSHED_REQUEST_TTL_SECONDS * 1000;
    expect(await store.take(late.requestUri)).toBeNull();
  });

  it('keys requests by a hash, and knows nothing of a request_uri of another form', async () => {
    const kv = new MemoryKeyValueStore();
    const store = new PushedAuthorizationRequestStore(kv);
    const { requestUri } = await store.push(request);
    expect(await kv.get(`oauth:par:${requestUri}`)).toBeNull();
    expect(
      await store.take(requestUri.replace('urn:ietf:params:oauth:request_uri:', '')),
    ).toBeNull();
  });
});

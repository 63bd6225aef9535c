import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Problem } from '@foodshare/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JwksKeys, UnknownKeyError } from './jwks-keys.ts';

function publicJwk(kid: string): JsonWebKey & { kid: string } {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };
}

/**
 * The authorization server's key set on a real socket: what it publishes, how it answers, and
 * every path it was asked for.
 */
let server: Server;
let base = '';
let published: JsonWebKey[] = [];
let answer: 'keys' | 'error' | 'redirect' | 'slow' = 'keys';
const requested: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requested.push(request.url ?? '');
    if (answer === 'slow') return; // never answers: the timeout ends the wait
    if (answer === 'redirect') {
      response.writeHead(302, { location: `${base}/elsewhere` }).end();
    } else if (answer === 'error') {
      response.writeHead(500).end();
    } else {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: published }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Keys on a clock of the test's own, refetching at most every 30 s, kept 600 s. */
function keysAt(clock: { now: number }) {
  requested.length = 0;
  answer = 'keys';
  return new JwksKeys({
    url: `${base}/.well-known/jwks.json`,
    refetchMs: 30_000,
    maxAgeMs: 600_000,
    timeoutMs: 200,
    now: () => clock.now,
  });
}

describe('JwksKeys', () => {
  it('fetches the keys once for many look-ups, and only the configured URL', async () => {
    published = [publicJwk('a'), { kty: 'oct', k: 'c2VjcmV0', kid: 'symmetric' }];
    const keys = keysAt({ now: 0 });
    const pems = await Promise.all([keys.pemFor('a'), keys.pemFor('a'), keys.pemFor('a')]);
    expect(pems[0]).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(new Set(pems).size).toBe(1);
    // A symmetric key is no verification key of ours.
    await expect(keys.pemFor('symmetric')).rejects.toBeInstanceOf(UnknownKeyError);
    expect(requested).toEqual(['/.well-known/jwks.json']);
  });

  it('answers with old keys while it fetches fresh ones in the background; a retired key goes', async () => {
    published = [publicJwk('a')];
    const clock = { now: 0 };
    const keys = keysAt(clock);
    const first = await keys.pemFor('a');
    published = [publicJwk('b')];
    clock.now = 600_001;
    // The server never answers this fetch: the old key answers at once all the same.
    answer = 'slow';
    const waited = new Promise((resolve) => setTimeout(resolve, 100, 'waited for the fetch'));
    expect(await Promise.race([keys.pemFor('a'), waited])).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 300));
    answer = 'keys';
    clock.now = 700_000;
    expect(await keys.pemFor('a')).toBe(first);
    await expect.poll(() => requested.length).toBe(3);
    // Once the background fetch got the fresh set, the retired key verifies nothing.
    await expect
      .poll(() => keys.pemFor('a').catch((error: unknown) => error))
      .toBeInstanceOf(UnknownKeyError);
    expect(await keys.pemFor('b')).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });

  it('fetches again for an unknown kid at most once in the refetch interval', async () => {
    published = [publicJwk('a')];
    const clock = { now: 0 };
    const keys = keysAt(clock);
    await keys.pemFor('a');
    published = [...published, publicJwk('b')];
    clock.now = 10_000;
    // Within 30 s of the last fetch a made-up kid costs no fetch.
    await expect(keys.pemFor('made-up')).rejects.toBeInstanceOf(UnknownKeyError);
    await expect(keys.pemFor('b')).rejects.toBeInstanceOf(UnknownKeyError);
    expect(requested).toHaveLength(1);
    clock.now = 31_000;
    expect(await keys.pemFor('b')).toMatch(/PUBLIC KEY/);
    expect(requested).toHaveLength(2);
  });

  it('keeps the keys it has when a fetch fails, and answers 503 for a kid it cannot know', async () => {
    published = [publicJwk('a')];
    const clock = { now: 0 };
    const keys = keysAt(clock);
    const before = await keys.pemFor('a');
    for (const failure of ['error', 'redirect', 'slow'] as const) {
      answer = failure;
      clock.now += 700_000; // the keys are stale: fetched again before use
      expect(await keys.pemFor('a'), failure).toBe(before);
      clock.now += 31_000;
      const unknown = await keys.pemFor('b').catch((error: unknown) => error);
      expect(unknown, failure).toBeInstanceOf(Problem);
      expect(unknown).toMatchObject({ status: 503, code: 'TOKEN_KEYS_UNAVAILABLE' });
    }
    expect(requested).not.toContain('/elsewhere');
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { DEVELOPMENT_KEY_ENCRYPTION_KEY, rotateSigningKey } from '@foodshare/domain';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type AuthApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { buildTestApp } from '../test-support/build-test-app.ts';

// Two instances of the auth service on one database, as a deployment runs them; each re-reads
// the keys every 200 ms instead of every minute, so the test waits about two seconds in all.
const REFRESH = { SIGNING_KEY_REFRESH_SECONDS: '0.2' };
const ACTIVATE_AFTER_MS = 1000;
const RETIRE_AFTER_MS = 500;

let first: AuthApp;
let second: AuthApp;

beforeAll(async () => {
  const built = await buildTestApp(REFRESH);
  first = built.app;
  second = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: built.database.url,
      REDIS_URL: built.redis.url,
      REDIS_KEY_PREFIX: built.redis.keyPrefix,
      ...REFRESH,
    }),
  );
  // Booting together: one creates the first key, the other finds it (advisory lock).
  await Promise.all([first.ready(), second.ready()]);
});

afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
});

const kids = async (app: AuthApp) =>
  (await app.oauth.keys.publicJwks()).keys.map((key) => key.kid).sort();
const signingKid = async (app: AuthApp) =>
  decodeProtectedHeader(await app.oauth.keys.signJwt({ exp: Math.floor(Date.now() / 1000) + 3600 }))
    .kid;
const untilOffset = (start: number, offsetMs: number) =>
  sleep(Math.max(0, start + offsetMs - Date.now()));

describe('signing-key rotation across instances', () => {
  it('publishes the next key before it signs, then signs with it, and keeps the old one until it expires', async () => {
    const oldKid = await signingKid(second);
    expect(await signingKid(first)).toBe(oldKid);
    expect(await kids(first)).toEqual([oldKid]);
    const oldToken = await second.oauth.keys.signJwt({
      exp: Math.floor(Date.now() / 1000) + 3600,
    });

    // What `pnpm cli keys rotate` does, from outside both instances.
    const start = Date.now();
    const rotation = await rotateSigningKey(first.orm.em.fork(), DEVELOPMENT_KEY_ENCRYPTION_KEY, {
      activateAfterMs: ACTIVATE_AFTER_MS,
      retireAfterMs: RETIRE_AFTER_MS,
      now: new Date(start),
    });

    // Published by every instance within the reload interval, before it signs anything.
    await untilOffset(start, 400);
    for (const app of [first, second]) {
      expect(await kids(app)).toEqual([oldKid, rotation.kid].sort());
      expect(await signingKid(app)).toBe(oldKid);
    }

    // From activation on, every instance signs with it; the old key stays published.
    await untilOffset(start, ACTIVATE_AFTER_MS + 50);
    for (const app of [first, second]) {
      expect(await signingKid(app)).toBe(rotation.kid);
      expect(await kids(app)).toEqual([oldKid, rotation.kid].sort());
    }
    await expect(second.oauth.keys.verifyJwt(oldToken, {})).resolves.toBeTruthy();

    // Once expired (and reloaded), the old key is gone from the JWKS and its tokens fail.
    await untilOffset(start, ACTIVATE_AFTER_MS + RETIRE_AFTER_MS + 300);
    for (const app of [first, second]) {
      expect(await kids(app)).toEqual([rotation.kid]);
      await expect(app.oauth.keys.verifyJwt(oldToken, {})).rejects.toMatchObject({
        reason: 'unknown_key',
      });
    }
  });

  it('the JWKS endpoint follows the rotation without a restart', async () => {
    const before = (await second.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json<{
      keys: { kid: string }[];
    }>();
    const rotation = await rotateSigningKey(first.orm.em.fork(), DEVELOPMENT_KEY_ENCRYPTION_KEY, {
      activateAfterMs: 60_000,
    });
    await sleep(300);
    const after = (await second.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json<{
      keys: { kid: string }[];
    }>();
    expect(after.keys.map((key) => key.kid).sort()).toEqual(
      [...before.keys.map((key) => key.kid), rotation.kid].sort(),
    );
  });
});

import { buildTestAuthServer, servicesOf } from '../test-support/build-test-app.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { rotateSigningKey, SigningKeyRotationError } from '@foodshare/domain';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { AuthApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { describe, expect, test as base } from '../test-support/fixtures.ts';

// Two instances of the auth service on one database, as a deployment runs them; each re-reads
// the keys every 200 ms instead of every minute, and the tokens of the rotation test live two
// seconds instead of an hour, so the test waits about three seconds in all.
const REFRESH = { SIGNING_KEY_REFRESH_SECONDS: '0.2' };
const ACTIVATE_AFTER_MS = 600;
const TOKEN_LIFETIME_S = 2;
// OIDC Core 10.1.1: the retired key stays published as long as a token it signed can live.
const RETIRE_AFTER_MS = TOKEN_LIFETIME_S * 1000;

/** A second instance beside the file's app, on its database and Redis prefix. */
const test = base.extend(
  'secondApp',
  { scope: 'file' },
  async ({ testApp }, { onCleanup }): Promise<AuthApp> => {
    const second = await buildTestAuthServer(loadConfig({ ...testApp.env, ...REFRESH }));
    onCleanup(() => second.close());
    // Booting together: one creates the first key, the other finds it (advisory lock).
    await Promise.all([testApp.app.ready(), second.ready()]);
    return second;
  },
);
const it = test;

test.override('appEnv', { scope: 'file' }, REFRESH);

let first: AuthApp;
let second: AuthApp;

test.beforeAll(({ secondApp, app }) => {
  // The helpers below are the file's and take either instance.
  second = secondApp;
  first = app;
});

const kids = async (app: AuthApp) =>
  (await servicesOf(app).keys.publicJwks()).keys.map((key) => key.kid).sort();
const signingKid = async (app: AuthApp) =>
  decodeProtectedHeader(
    await servicesOf(app).keys.signJwt({ exp: Math.floor(Date.now() / 1000) + 3600 }),
  ).kid;
const untilOffset = (start: number, offsetMs: number) =>
  sleep(Math.max(0, start + offsetMs - Date.now()));

describe('signing-key rotation across instances', () => {
  const kek = () => servicesOf(first).secrets.keyEncryptionKey;

  it('refuses to drop the old key from the JWKS before the 1-hour tokens it signed expire', async () => {
    const before = await kids(first);
    const oldToken = await servicesOf(second).keys.signJwt({
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
    // What `pnpm cli keys rotate --retire-after 0s` (or 500ms) asked for: refused.
    for (const retireAfterMs of [0, 500, 3600_000 - 1]) {
      await expect(
        rotateSigningKey(first.orm.em.fork(), kek(), { activateAfterMs: 0, retireAfterMs }),
      ).rejects.toThrow(SigningKeyRotationError);
    }
    await sleep(300);
    for (const app of [first, second]) {
      expect(await kids(app)).toEqual(before);
      await expect(servicesOf(app).keys.verifyJwt(oldToken, {})).resolves.toBeTruthy();
    }
  });

  it('publishes the next key before it signs, then signs with it, and keeps the old one until its tokens expire', async () => {
    const oldKid = await signingKid(second);
    expect(await signingKid(first)).toBe(oldKid);
    expect(await kids(first)).toEqual([oldKid]);

    // What `pnpm cli keys rotate` does, from outside both instances, for tokens of 2 seconds.
    const start = Date.now();
    const rotation = await rotateSigningKey(first.orm.em.fork(), kek(), {
      activateAfterMs: ACTIVATE_AFTER_MS,
      retireAfterMs: RETIRE_AFTER_MS,
      longestTokenLifetimeMs: TOKEN_LIFETIME_S * 1000,
      now: new Date(start),
    });

    // Published by every instance within the reload interval, before it signs anything.
    await untilOffset(start, 400);
    for (const app of [first, second]) {
      expect(await kids(app)).toEqual([oldKid, rotation.kid].sort());
      expect(await signingKid(app)).toBe(oldKid);
    }
    // The old key's last tokens, signed just before it retires, live as long as any token.
    const lastOldToken = await servicesOf(second).keys.signJwt({
      exp: Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_S,
    });
    expect(decodeProtectedHeader(lastOldToken).kid).toBe(oldKid);
    const { exp } = decodeJwt(lastOldToken);

    // From activation on, every instance signs with the new key; the old one stays published.
    await untilOffset(start, ACTIVATE_AFTER_MS + 50);
    for (const app of [first, second]) {
      expect(await signingKid(app)).toBe(rotation.kid);
      expect(await kids(app)).toEqual([oldKid, rotation.kid].sort());
    }

    // The retired key's token still verifies everywhere until the moment it expires ...
    await sleep(Math.max(0, exp! * 1000 - 250 - Date.now()));
    for (const app of [first, second]) {
      await expect(servicesOf(app).keys.verifyJwt(lastOldToken, {})).resolves.toMatchObject({
        exp,
      });
    }

    // ... and only once the key's publication ended (and reloaded) is it gone from the JWKS.
    await untilOffset(start, ACTIVATE_AFTER_MS + RETIRE_AFTER_MS + 300);
    for (const app of [first, second]) {
      expect(await kids(app)).toEqual([rotation.kid]);
      await expect(servicesOf(app).keys.verifyJwt(lastOldToken, {})).rejects.toMatchObject({
        reason: 'unknown_key',
      });
    }
  });

  it('the JWKS endpoint follows the rotation without a restart', async () => {
    const before = (await second.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json<{
      keys: { kid: string }[];
    }>();
    const rotation = await rotateSigningKey(first.orm.em.fork(), kek(), {
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

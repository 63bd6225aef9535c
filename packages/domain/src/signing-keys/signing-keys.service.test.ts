import { randomBytes } from 'node:crypto';
import { SigningKeyEntity } from '../entities/signing-key.entity.ts';
import type { MikroORM } from '../db/orm.ts';
import { describe, expect, it, test } from '../test-support/fixtures.ts';
import {
  decryptPrivateJwk,
  encryptPrivateJwk,
  KeyEncryptionError,
  parseKeyEncryptionKey,
} from './key-encryption.ts';
import {
  currentSigningKey,
  DEFAULT_RETIRED_KEY_PUBLISHED_MS,
  ensureSigningKey,
  formatDuration,
  listSigningKeys,
  loadPublishedSigningKeys,
  rotateSigningKey,
  SigningKeyRotationError,
} from './signing-keys.service.ts';

const randomKek = () => new Uint8Array(randomBytes(32));
const kek = randomKek();
const HOUR = 3600 * 1000;

test.override('ormConfig', { scope: 'file' }, { poolSize: 4 });
test.beforeEach(async ({ em }) => {
  await em.nativeDelete(SigningKeyEntity, {});
});

async function storedRow(orm: MikroORM, kid: string) {
  const rows = await orm.em
    .fork()
    .getConnection()
    .execute<{ private_key_encrypted: string; public_jwk: Record<string, unknown> }[]>(
      'select private_key_encrypted, public_jwk from signing_keys where kid = ?',
      [kid],
    );
  const row = rows[0];
  if (!row) throw new Error(`no row for ${kid}`);
  return row;
}

describe('the key-encryption key', () => {
  it.each([
    ['64 hex characters', 'ab'.repeat(32), true],
    ['base64 of 32 bytes', Buffer.alloc(32, 7).toString('base64'), true],
    ['base64url of 32 bytes', Buffer.alloc(32, 0xfb).toString('base64url'), true],
    ['31 bytes of hex', 'ab'.repeat(31), false],
    ['base64 of 31 bytes', Buffer.alloc(31, 7).toString('base64'), false],
    ['a passphrase', 'correct horse battery staple correct horse', false],
  ])('%s (%s): valid %s', (_what, value, valid) => {
    const parsed = parseKeyEncryptionKey(value);
    expect(parsed === null ? null : parsed.length).toBe(valid ? 32 : null);
  });

  it('encrypts with a fresh IV each time and binds the ciphertext to its kid', () => {
    const jwk = { kty: 'RSA', d: 'secret-d' };
    const first = encryptPrivateJwk(jwk, kek, 'kid-1');
    const second = encryptPrivateJwk(jwk, kek, 'kid-1');
    expect(first).not.toBe(second);
    expect(first).not.toContain('secret-d');
    expect(decryptPrivateJwk(first, kek, 'kid-1')).toEqual(jwk);
    expect(() => decryptPrivateJwk(first, kek, 'kid-2')).toThrow(KeyEncryptionError);
    expect(() => decryptPrivateJwk(first, new Uint8Array(randomBytes(32)), 'kid-1')).toThrow(
      KeyEncryptionError,
    );
    const [version, iv, ciphertext, tag] = first.split('.');
    const flipped = `${ciphertext?.[0] === 'A' ? 'B' : 'A'}${ciphertext?.slice(1)}`;
    expect(() => decryptPrivateJwk([version, iv, flipped, tag].join('.'), kek, 'kid-1')).toThrow(
      KeyEncryptionError,
    );
  });
});

describe('ensureSigningKey', () => {
  it('creates one active key on an empty table, and none when one is active', async ({ orm }) => {
    const first = await ensureSigningKey(orm.em.fork(), kek);
    const second = await ensureSigningKey(orm.em.fork(), kek);
    expect(first.created).toBe(true);
    expect(second).toEqual({ kid: first.kid, created: false });
    expect(await orm.em.fork().count(SigningKeyEntity, {})).toBe(1);
  });

  it('creates exactly one key when several instances boot at once', async ({ orm }) => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () => ensureSigningKey(orm.em.fork(), kek)),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.kid)).size).toBe(1);
    expect(await orm.em.fork().count(SigningKeyEntity, {})).toBe(1);
  });

  it('does not create a second key for an instance whose clock lags a little behind', async ({
    orm,
  }) => {
    const now = new Date('2026-11-22T10:00:00Z');
    const first = await ensureSigningKey(orm.em.fork(), kek, { now });
    const lagging = await ensureSigningKey(orm.em.fork(), kek, {
      now: new Date(now.getTime() - 30_000),
    });
    expect(lagging).toEqual({ kid: first.kid, created: false });
  });

  it('stores the private key encrypted: no private member in clear, the public JWK public only', async ({
    orm,
  }) => {
    const { kid } = await ensureSigningKey(orm.em.fork(), kek);
    const row = await storedRow(orm, kid);
    const privateJwk = decryptPrivateJwk(row.private_key_encrypted, kek, kid);
    expect(typeof privateJwk.d).toBe('string');
    expect(row.private_key_encrypted).not.toContain(String(privateJwk.d));
    expect(row.private_key_encrypted).not.toContain(String(privateJwk.p));
    expect(Object.keys(row.public_jwk).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    expect(() =>
      decryptPrivateJwk(row.private_key_encrypted, new Uint8Array(randomBytes(32)), kid),
    ).toThrow(KeyEncryptionError);
  });
});

describe('rotateSigningKey', () => {
  const t0 = new Date('2026-11-22T10:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  it('publishes the next key at once, activates it after the delay, retires the old one then', async ({
    orm,
  }) => {
    const { kid: old } = await ensureSigningKey(orm.em.fork(), kek, { now: t0 });
    const rotation = await rotateSigningKey(orm.em.fork(), kek, {
      activateAfterMs: HOUR,
      retireAfterMs: 2 * HOUR,
      now: t0,
    });
    expect(rotation.activatesAt).toEqual(at(HOUR));
    expect(rotation.retired).toEqual([{ kid: old, retiresAt: at(HOUR), expiresAt: at(3 * HOUR) }]);

    const published = (now: Date) =>
      loadPublishedSigningKeys(orm.em.fork(), now).then((keys) => keys.map((key) => key.kid));
    const signer = async (now: Date) =>
      currentSigningKey(await loadPublishedSigningKeys(orm.em.fork(), now), now)?.kid;

    // Before activation: both published, the old one still signs.
    expect(await published(at(1))).toEqual([rotation.kid, old]);
    expect(await signer(at(HOUR - 1))).toBe(old);
    // From activation: the new one signs, the old one stays published until it expires.
    expect(await signer(at(HOUR))).toBe(rotation.kid);
    expect(await published(at(3 * HOUR - 1))).toEqual([rotation.kid, old]);
    expect(await published(at(3 * HOUR))).toEqual([rotation.kid]);

    const listed = await listSigningKeys(orm.em.fork(), at(2 * HOUR));
    expect(listed.map(({ kid, status }) => ({ kid, status }))).toEqual([
      { kid: rotation.kid, status: 'active' },
      { kid: old, status: 'retired' },
    ]);
  });

  it('keeps a retired key published for a day past the access-token lifetime by default', async ({
    orm,
  }) => {
    await ensureSigningKey(orm.em.fork(), kek, { now: t0 });
    const rotation = await rotateSigningKey(orm.em.fork(), kek, { activateAfterMs: 0, now: t0 });
    expect(rotation.retired[0]?.expiresAt).toEqual(at(DEFAULT_RETIRED_KEY_PUBLISHED_MS));
    expect(DEFAULT_RETIRED_KEY_PUBLISHED_MS).toBeGreaterThan(HOUR + 23 * HOUR);
  });

  it('a second rotation before the first activates retires the pending key unused', async ({
    orm,
  }) => {
    const { kid: old } = await ensureSigningKey(orm.em.fork(), kek, { now: t0 });
    const first = await rotateSigningKey(orm.em.fork(), kek, { activateAfterMs: HOUR, now: t0 });
    const second = await rotateSigningKey(orm.em.fork(), kek, {
      activateAfterMs: HOUR,
      now: at(10),
    });
    const keys = await loadPublishedSigningKeys(orm.em.fork(), at(20));
    const byKid = new Map(keys.map((key) => [key.kid, key]));
    expect(byKid.get(old)?.retiresAt).toEqual(at(HOUR));
    expect(byKid.get(first.kid)?.retiresAt).toEqual(at(HOUR + 10));
    expect(currentSigningKey(keys, at(HOUR + 5))?.kid).toBe(first.kid);
    expect(currentSigningKey(keys, at(HOUR + 10))?.kid).toBe(second.kid);
  });

  it('deletes keys whose publication has ended', async ({ orm }) => {
    const { kid: old } = await ensureSigningKey(orm.em.fork(), kek, { now: t0 });
    await rotateSigningKey(orm.em.fork(), kek, {
      activateAfterMs: 0,
      retireAfterMs: HOUR,
      now: t0,
    });
    const later = await rotateSigningKey(orm.em.fork(), kek, { activateAfterMs: 0, now: at(HOUR) });
    expect(later.pruned).toEqual([old]);
    expect(await orm.em.fork().count(SigningKeyEntity, { kid: old })).toBe(0);
  });

  it('refuses to unpublish a replaced key before the tokens it signed expire (OIDC Core 10.1.1)', async ({
    orm,
  }) => {
    const { kid: old } = await ensureSigningKey(orm.em.fork(), kek, { now: t0 });
    for (const retireAfterMs of [0, HOUR - 1]) {
      await expect(
        rotateSigningKey(orm.em.fork(), kek, { activateAfterMs: 0, retireAfterMs, now: t0 }),
      ).rejects.toThrow(SigningKeyRotationError);
    }
    // What a caller needs to word the refusal its own way (the CLI names --retire-after).
    await expect(
      rotateSigningKey(orm.em.fork(), kek, { retireAfterMs: 30 * 60_000, now: t0 }),
    ).rejects.toMatchObject({
      retireAfterMs: 30 * 60_000,
      longestTokenLifetimeMs: HOUR,
      message: expect.stringContaining('at least 1h after it stops signing') as string,
    });
    await expect(
      rotateSigningKey(orm.em.fork(), kek, {
        activateAfterMs: 0,
        retireAfterMs: 2 * HOUR,
        longestTokenLifetimeMs: 3 * HOUR,
        now: t0,
      }),
    ).rejects.toThrow(/at least 3h after it stops signing .* not 2h/);
    // Nothing changed: the old key still signs, alone.
    const keys = await loadPublishedSigningKeys(orm.em.fork(), t0);
    expect(keys.map((key) => [key.kid, key.retiresAt])).toEqual([[old, null]]);

    // Exactly the token lifetime is enough: a token signed at the last moment verifies until exp.
    const rotation = await rotateSigningKey(orm.em.fork(), kek, {
      activateAfterMs: 0,
      retireAfterMs: HOUR,
      now: t0,
    });
    const published = (now: Date) =>
      loadPublishedSigningKeys(orm.em.fork(), now).then((rows) => rows.map((key) => key.kid));
    expect(await published(at(HOUR - 1))).toContain(old);
    expect(await published(at(HOUR))).toEqual([rotation.kid]);
  });

  it('refuses negative delays', async ({ em }) => {
    await expect(rotateSigningKey(em, kek, { activateAfterMs: -1 })).rejects.toThrow(RangeError);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [1500, '1500ms'],
    [90_000, '90s'],
    [15 * 60_000, '15m'],
    [HOUR, '1h'],
    [25 * HOUR, '25h'],
    [48 * HOUR, '2d'],
  ])('writes %i ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

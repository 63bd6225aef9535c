import { servicesOf } from '../test-support/build-test-app.ts';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { KeyEncryptionError, rotateSigningKey, SigningKeyEntity } from '@foodshare/domain';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import type { AuthApp } from '../app.ts';
import { InvalidTokenError, KeyRing, type InvalidTokenReason } from './key-ring.ts';
import { describe, expect, it, test } from '../test-support/fixtures.ts';

let clock = Date.now();
let ring: KeyRing;

function ringWith(
  app: AuthApp,
  options: { issuer?: string; keyEncryptionKey?: Uint8Array } = {},
): KeyRing {
  return new KeyRing({
    orm: app.orm,
    keyEncryptionKey: options.keyEncryptionKey ?? servicesOf(app).secrets.keyEncryptionKey,
    issuer: options.issuer ?? servicesOf(app).issuer,
    refreshMs: 60_000,
    log: app.log,
    now: () => clock,
  });
}

const seconds = () => Math.floor(clock / 1000);

test.beforeAll(async ({ app }) => {
  clock = Date.now();
  ring = ringWith(app);
});

describe('the key ring', () => {
  it('has a signing key once the app is ready', async ({ app, services }) => {
    expect(await app.orm.em.fork().count(SigningKeyEntity, {})).toBe(1);
    expect((await services.keys.publicJwks()).keys).toHaveLength(1);
  });

  it('signs RS256 with the kid of a published key, verifiable with the JWKS alone', async ({
    services,
  }) => {
    const token = await services.keys.signJwt(
      { sub: '7', aud: 'demo-public', exp: seconds() + 60 },
      { typ: 'at+jwt' },
    );
    const header = decodeProtectedHeader(token);
    const jwks = await services.keys.publicJwks();
    expect(header).toEqual({ alg: 'RS256', kid: jwks.keys[0]?.kid, typ: 'at+jwt' });
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: services.issuer,
      audience: 'demo-public',
      typ: 'at+jwt',
    });
    expect(payload).toMatchObject({ sub: '7', iss: 'http://localhost:8080' });
    expect(typeof payload.iat).toBe('number');
  });

  it('always sets iss to the issuer and leaves typ out when none is asked for', async ({
    services,
  }) => {
    const token = await ring.signJwt({ iss: 'https://elsewhere.example', exp: seconds() + 60 });
    expect(decodeProtectedHeader(token).typ).toBeUndefined();
    expect(await ring.verifyJwt(token, {})).toMatchObject({ iss: services.issuer });
  });

  it('verifies its own tokens with typ and audience', async () => {
    const token = await ring.signJwt(
      { sub: '1', aud: ['a', 'b'], exp: seconds() + 60 },
      { typ: 'at+jwt' },
    );
    expect(await ring.verifyJwt(token, { typ: 'at+jwt', audience: 'b' })).toMatchObject({
      sub: '1',
    });
  });

  const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

  const refusals: [
    string,
    (app: AuthApp) => Promise<string>,
    { typ?: string; audience?: string },
    InvalidTokenReason,
  ][] = [
    ['an expired token', () => ring.signJwt({ exp: seconds() - 1 }), {}, 'expired'],
    [
      'a token not valid yet',
      () => ring.signJwt({ exp: seconds() + 600, nbf: seconds() + 300 }),
      {},
      'not_yet_valid',
    ],
    ['a token without exp', () => ring.signJwt({ sub: '1' }), {}, 'claims'],
    [
      'another audience',
      () => ring.signJwt({ aud: 'demo-public', exp: seconds() + 60 }),
      { audience: 'demo-confidential' },
      'claims',
    ],
    [
      'an ID token where an access token is expected',
      () => ring.signJwt({ exp: seconds() + 60 }),
      { typ: 'at+jwt' },
      'type',
    ],
    [
      'another typ',
      () => ring.signJwt({ exp: seconds() + 60 }, { typ: 'logout+jwt' }),
      { typ: 'at+jwt' },
      'type',
    ],
    [
      'another issuer',
      (app: AuthApp) =>
        ringWith(app, { issuer: 'https://other.example' }).signJwt({ exp: seconds() + 60 }),
      {},
      'claims',
    ],
    [
      'a changed payload',
      async (app: AuthApp) => {
        const [header, , signature] = (await ring.signJwt({ sub: '1', exp: seconds() + 60 })).split(
          '.',
        );
        const payload = Buffer.from(
          JSON.stringify({ sub: '2', exp: seconds() + 60, iss: servicesOf(app).issuer }),
        ).toString('base64url');
        return `${header}.${payload}.${signature}`;
      },
      {},
      'signature',
    ],
    [
      'a key this server never published',
      (app: AuthApp) =>
        new SignJWT({ exp: seconds() + 60, iss: servicesOf(app).issuer })
          .setProtectedHeader({ alg: 'RS256', kid: 'made-up' })
          .sign(foreignKey),
      {},
      'unknown_key',
    ],
    [
      'a published kid on a foreign signature',
      async (app: AuthApp) => {
        const kid = (await ring.publicJwks()).keys[0]?.kid;
        return new SignJWT({ exp: seconds() + 60, iss: servicesOf(app).issuer })
          .setProtectedHeader({ alg: 'RS256', kid })
          .sign(foreignKey);
      },
      {},
      'signature',
    ],
    [
      'a symmetric algorithm',
      async (app: AuthApp) => {
        const kid = (await ring.publicJwks()).keys[0]?.kid;
        return new SignJWT({ exp: seconds() + 60, iss: servicesOf(app).issuer })
          .setProtectedHeader({ alg: 'HS256', kid })
          .sign(randomBytes(32));
      },
      {},
      'malformed',
    ],
    ['no JWT at all', () => Promise.resolve('not-a-token'), {}, 'malformed'],
  ];

  it.for(refusals)('refuses %s', async ([, makeToken, options, reason], { app }) => {
    const token = await makeToken(app);
    const error = await ring.verifyJwt(token, options).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(InvalidTokenError);
    expect(error).toMatchObject({ code: 'invalid_token', reason });
  });

  it('accepts a token until its exp and refuses it from then on (injected clock)', async () => {
    const start = clock;
    const token = await ring.signJwt({ exp: seconds() + 10 });
    clock = start + 9_000;
    await expect(ring.verifyJwt(token, {})).resolves.toBeTruthy();
    clock = start + 10_000;
    await expect(ring.verifyJwt(token, {})).rejects.toMatchObject({ reason: 'expired' });
    clock = start;
  });

  it('with acceptExpired, lets a passed exp through and nothing else (logout hints)', async ({
    app,
    services,
  }) => {
    const expired = await ring.signJwt({ sub: '1', aud: 'rp', exp: seconds() - 86_400 });
    await expect(ring.verifyJwt(expired, { acceptExpired: true })).resolves.toMatchObject({
      sub: '1',
    });
    const stillRefused: [string, { audience?: string }, InvalidTokenReason][] = [
      [
        await ringWith(app, { issuer: 'https://other.example' }).signJwt({ exp: seconds() - 60 }),
        {},
        'claims',
      ],
      [expired, { audience: 'another' }, 'claims'],
      [
        await new SignJWT({ exp: seconds() - 60, iss: services.issuer })
          .setProtectedHeader({ alg: 'RS256', kid: (await ring.publicJwks()).keys[0]?.kid })
          .sign(foreignKey),
        {},
        'signature',
      ],
      [await ring.signJwt({ exp: seconds() + 600, nbf: seconds() + 300 }), {}, 'not_yet_valid'],
    ];
    for (const [token, options, reason] of stillRefused) {
      await expect(
        ring.verifyJwt(token, { ...options, acceptExpired: true }),
      ).rejects.toMatchObject({ reason });
    }
  });

  it('refuses to start with a key-encryption key that does not open the stored keys', async ({
    app,
  }) => {
    const wrong = ringWith(app, { keyEncryptionKey: new Uint8Array(randomBytes(32)) });
    await expect(wrong.prepare()).rejects.toThrow(KeyEncryptionError);
    // Verification needs only public keys; signing needs the private one.
    await expect(wrong.signJwt({ exp: seconds() + 60 })).rejects.toThrow(KeyEncryptionError);
  });

  it('re-reads the keys at once for an unknown kid, at most once a second', async ({
    app,
    services,
  }) => {
    const verifier = ringWith(app);
    await verifier.reload();
    // Another instance (or the CLI) rotates with immediate activation and signs with the new key.
    const rotation = await rotateSigningKey(app.orm.em.fork(), services.secrets.keyEncryptionKey, {
      activateAfterMs: 0,
      now: new Date(clock),
    });
    const token = await ringWith(app).signJwt({ exp: seconds() + 60 });
    expect(decodeProtectedHeader(token).kid).toBe(rotation.kid);
    await expect(verifier.verifyJwt(token, {})).rejects.toMatchObject({ reason: 'unknown_key' });
    clock += 1500;
    await expect(verifier.verifyJwt(token, {})).resolves.toMatchObject({
      iss: services.issuer,
    });
  });
});

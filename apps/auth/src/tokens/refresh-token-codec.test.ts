import { hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RefreshTokenCodec } from './refresh-token-codec.ts';

describe('RefreshTokenCodec', () => {
  const kek = randomBytes(32);
  const claims = {
    familyId: 'family',
    jti: 'generation',
    clientId: 'demo-public',
    expiresAt: Math.floor(Date.now() / 1000) + 600,
  };

  it('seals a compact JWE (dir, A256GCM) that only it opens', async () => {
    const codec = new RefreshTokenCodec(kek);
    const token = await codec.seal(claims);
    expect(token.split('.')).toHaveLength(5);
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as object;
    expect(header).toEqual({ alg: 'dir', enc: 'A256GCM' });
    // Opaque: nothing of the claims is readable.
    expect(token).not.toContain(Buffer.from('demo-public').toString('base64url'));
    expect(await codec.open(token)).toEqual(claims);
  });

  it('does not open a token sealed under another key', async () => {
    const token = await new RefreshTokenCodec(randomBytes(32)).seal(claims);
    expect(await new RefreshTokenCodec(kek).open(token)).toBeNull();
  });

  it('does not open a tampered token', async () => {
    const codec = new RefreshTokenCodec(kek);
    const parts = (await codec.seal(claims)).split('.');
    const ciphertext = Buffer.from(parts[3]!, 'base64url');
    ciphertext[0] = ciphertext[0]! ^ 1;
    parts[3] = ciphertext.toString('base64url');
    expect(await codec.open(parts.join('.'))).toBeNull();
  });

  it('does not open an expired token', async () => {
    let now = Date.now();
    const codec = new RefreshTokenCodec(kek, () => now);
    const token = await codec.seal({ ...claims, expiresAt: Math.floor(now / 1000) + 10 });
    now += 11_000;
    expect(await codec.open(token)).toBeNull();
  });

  it('derives its key from the key-encryption key rather than using it directly', async () => {
    const { EncryptJWT } = await import('jose');
    const direct = await new EncryptJWT({ fid: 'f', cid: 'c' })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setJti('j')
      .setExpirationTime(claims.expiresAt)
      .encrypt(kek);
    expect(await new RefreshTokenCodec(kek).open(direct)).toBeNull();
  });

  // Tokens in flight when the codec changed were sealed by jose; jose-based readers may remain.
  it('opens what jose seals under its key, and jose opens what it seals', async () => {
    const { EncryptJWT, jwtDecrypt } = await import('jose');
    const key = new Uint8Array(
      hkdfSync('sha256', kek, new Uint8Array(0), 'foodshare oauth refresh-token A256GCM v1', 32),
    );
    const byJose = await new EncryptJWT({ fid: claims.familyId, cid: claims.clientId })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setJti(claims.jti)
      .setIssuedAt()
      .setExpirationTime(claims.expiresAt)
      .encrypt(key);
    const codec = new RefreshTokenCodec(kek);
    expect(await codec.open(byJose)).toEqual(claims);
    const { payload, protectedHeader } = await jwtDecrypt(await codec.seal(claims), key);
    expect(protectedHeader).toEqual({ alg: 'dir', enc: 'A256GCM' });
    expect(payload).toMatchObject({ fid: 'family', cid: 'demo-public', jti: 'generation' });
    expect(payload.exp).toBe(claims.expiresAt);
  });

  it('does not open a token with a shortened tag, a key part, or another header', async () => {
    const codec = new RefreshTokenCodec(kek);
    const parts = (await codec.seal(claims)).split('.');
    const shortTag = [...parts];
    shortTag[4] = Buffer.from(parts[4]!, 'base64url').subarray(0, 12).toString('base64url');
    expect(await codec.open(shortTag.join('.'))).toBeNull();
    const withKey = [...parts];
    withKey[1] = 'AAAA';
    expect(await codec.open(withKey.join('.'))).toBeNull();
    const otherHeader = [...parts];
    otherHeader[0] = Buffer.from('{"alg":"dir","enc":"A256GCM","zip":"DEF"}').toString('base64url');
    expect(await codec.open(otherHeader.join('.'))).toBeNull();
    expect(await codec.open('not.a.token')).toBeNull();
    expect(await codec.open(parts.join('.'))).toEqual(claims);
  });
});

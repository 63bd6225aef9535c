import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { MemoryKeyValueStore } from '../kv/index.ts';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { DpopProofs } from './dpop-proofs.ts';

const URL_ = 'https://id.example.org/oauth/token';
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const WINDOW_MS = 300_000;

async function keyOf(alg: string, options: Parameters<typeof generateKeyPair>[1] = {}) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true, ...options });
  return { alg, privateKey, jwk: await exportJWK(publicKey) };
}

function sign(
  key: { alg: string; privateKey: CryptoKey | Uint8Array; jwk: JWK },
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT({
    htm: 'POST',
    htu: URL_,
    jti: randomUUID(),
    iat: Math.floor(NOW / 1000),
    ...claims,
  })
    .setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk: key.jwk, ...header })
    .sign(key.privateKey);
}

function proofs(now = NOW) {
  const kv = new MemoryKeyValueStore();
  return {
    kv,
    dpop: new DpopProofs(kv, { nonceSecret: new Uint8Array(32).fill(7), now: () => now }),
  };
}

const target = { method: 'POST', url: URL_, requireNonce: false };

describe('DpopProofs (RFC 9449 4.3)', () => {
  it.for(['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA', 'Ed25519'])(
    'takes a proof signed with %s and answers its key thumbprint',
    async (alg) => {
      const key = await keyOf(alg);
      const checked = await proofs().dpop.check(await sign(key), target);
      expect(checked?.jkt).toMatch(/^[A-Za-z0-9_-]{43}$/);
    },
  );

  it('refuses a symmetric key even when the proof names its secret (HS256, kty oct)', async () => {
    const secret = new Uint8Array(32).fill(1);
    const jwk: JWK = { kty: 'oct', k: Buffer.from(secret).toString('base64url') };
    const proof = await sign({ alg: 'HS256', privateKey: secret, jwk });
    await expect(proofs().dpop.check(proof, target)).rejects.toMatchObject({
      error: 'invalid_dpop_proof',
    });
  });

  it('refuses alg none, an RSA key with another exponent, two headers and a long header', async () => {
    const { dpop } = proofs();
    const key = await keyOf('ES256');
    const good = await sign(key);
    const [header, payload] = good.split('.');
    const none = `${Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(header!, 'base64url').toString()), alg: 'none' }),
    ).toString('base64url')}.${payload}.`;
    const exponent3 = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 3 });
    const rsa = {
      alg: 'RS256',
      privateKey: exponent3.privateKey as unknown as CryptoKey,
      jwk: exponent3.publicKey.export({ format: 'jwk' }) as JWK,
    };
    for (const proof of [
      none,
      await sign(rsa),
      [good, good],
      `${good}, ${good}`,
      'x'.repeat(5000),
    ]) {
      await expect(dpop.check(proof, target)).rejects.toMatchObject({
        error: 'invalid_dpop_proof',
      });
    }
  });

  it('takes htu with a query or fragment, and iat exactly at its limits', async () => {
    const { dpop } = proofs();
    const key = await keyOf('ES256');
    const seconds = Math.floor(NOW / 1000);
    for (const claims of [
      { htu: `${URL_}?x=1#y` },
      { iat: seconds - 300 },
      { iat: seconds + 60 },
    ]) {
      expect(
        await dpop.check(await sign(key, claims), target),
        JSON.stringify(claims),
      ).not.toBeNull();
    }
    for (const claims of [{ iat: seconds - 301 }, { iat: seconds + 61 }, { htu: `${URL_}x` }]) {
      await expect(dpop.check(await sign(key, claims), target)).rejects.toMatchObject({
        error: 'invalid_dpop_proof',
      });
    }
  });

  it('takes nonces of the window before and after, not older ones', async () => {
    const key = await keyOf('ES256');
    const nonceAt = (at: number) => proofs(at).dpop.nonce();
    const { dpop } = proofs();
    const withNonce = { ...target, requireNonce: true };
    for (const at of [NOW - WINDOW_MS, NOW, NOW + WINDOW_MS]) {
      const checked = await dpop.check(await sign(key, { nonce: nonceAt(at) }), withNonce);
      expect(checked, String(at)).not.toBeNull();
    }
    await expect(
      dpop.check(await sign(key, { nonce: nonceAt(NOW - 2 * WINDOW_MS) }), withNonce),
    ).rejects.toMatchObject({ error: 'use_dpop_nonce' });
  });

  it('uses nothing up on a check; a consumed proof is refused the second time', async () => {
    const { dpop } = proofs();
    const proof = await sign(await keyOf('ES256'));
    const first = (await dpop.check(proof, target))!;
    const again = (await dpop.check(proof, target))!;
    // Two checks left the proof unused: the first consume succeeds.
    await dpop.consume(first);
    await expect(dpop.consume(again)).rejects.toMatchObject({ error: 'invalid_dpop_proof' });
  });
});

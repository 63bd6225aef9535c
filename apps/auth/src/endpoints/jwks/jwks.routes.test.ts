import { servicesOf } from '../../test-support/build-test-app.ts';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import type { AuthApp } from '../../app.ts';
import { describe, expect, it } from '../../test-support/fixtures.ts';

const getJwks = (app: AuthApp) => app.inject({ method: 'GET', url: '/.well-known/jwks.json' });

describe('GET /.well-known/jwks.json', () => {
  it('publishes each key with kid, kty, use sig and alg, and public members only', async ({
    app,
  }) => {
    const response = await getJwks(app);
    expect(response.statusCode).toBe(200);
    const { keys } = response.json<{ keys: Record<string, unknown>[] }>();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      expect(key).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256', e: 'AQAB' });
      // 2048-bit modulus: 256 bytes, 342 base64url characters.
      expect(String(key.n)).toHaveLength(342);
    }
    for (const privateMember of ['d', 'p', 'q', 'dp', 'dq', 'qi']) {
      expect(response.body).not.toContain(`"${privateMember}"`);
    }
  });

  it('may be read from any origin and cached briefly', async ({ app }) => {
    const response = await getJwks(app);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cache-control']).toBe('public, max-age=60');
  });

  it('verifies every token the server signs, found by the kid in its header', async ({ app }) => {
    const jwks = (await getJwks(app)).json<JSONWebKeySet>();
    const token = await servicesOf(app).keys.signJwt(
      { sub: '1', aud: 'demo-public', exp: Math.floor(Date.now() / 1000) + 60 },
      { typ: 'at+jwt' },
    );
    const { kid } = decodeProtectedHeader(token);
    expect(jwks.keys.map((key) => key.kid)).toContain(kid);
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: servicesOf(app).issuer,
      audience: 'demo-public',
      algorithms: ['RS256'],
    });
    expect(payload.sub).toBe('1');
  });
});

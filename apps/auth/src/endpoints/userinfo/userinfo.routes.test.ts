import { servicesOf } from '../../test-support/build-test-app.ts';
import { UserinfoSchema } from '@foodshare/schemas';
import { decodeJwt } from 'jose';
import { Value } from 'typebox/value';
import type { AuthApp } from '../../app.ts';
import {
  DemoClientId,
  refreshRequest,
  tokensFor,
  userinfoRequest,
  type TokenResponse,
} from '../../test-support/token-helpers.ts';
import { describe, expect, ids, it } from '../../test-support/fixtures.ts';

describe('GET and POST /oauth/userinfo (OIDC Core 5.3, RFC 6750)', () => {
  const tokensOf = (app: AuthApp, userId: number, scopes?: string[]) =>
    tokensFor(app, { clientId: DemoClientId.public, userId, ...(scopes ? { scopes } : {}) });

  function expectInvalidToken(response: Awaited<ReturnType<typeof userinfoRequest>>) {
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
    expect(response.json()).toMatchObject({ error: 'invalid_token' });
  }

  it('answers every claim of docs/spec.md §2.13 for openid profile email regions', async ({
    app,
  }) => {
    const tokens = await tokensOf(app, ids.users.alice);
    const response = await userinfoRequest(app, tokens.access_token);
    expect(response.statusCode).toBe(200);
    const claims = response.json();
    expect(Value.Check(UserinfoSchema, claims)).toBe(true);
    expect(claims).toEqual({
      sub: String(ids.users.alice),
      preferred_username: `Alice${ids.users.alice}`,
      name: 'Alice Mustermann',
      given_name: 'Alice',
      family_name: 'Mustermann',
      picture: `${servicesOf(app).issuer}/api/uploads/${ids.avatarUploadId}`,
      locale: 'de-DE',
      email: 'alice@example.org',
      email_verified: true,
      region_ids: [String(3), String(5)],
      region_ambassador: [String(5)],
      // Musterstadt a region, 5 its working group, which Alice administers.
      groups: ['region:3', 'workgroup:5', 'workgroup:5:admin'],
    });
  });

  it('has the sub of the ID token', async ({ app }) => {
    const tokens = await tokensOf(app, ids.users.bob);
    const claims = (await userinfoRequest(app, tokens.access_token)).json<{ sub: string }>();
    expect(claims.sub).toBe(decodeJwt(tokens.id_token!).sub);
  });

  it('answers only sub and preferred_username for openid alone', async ({ app }) => {
    const tokens = await tokensOf(app, ids.users.alice, ['openid']);
    expect((await userinfoRequest(app, tokens.access_token)).json()).toEqual({
      sub: String(ids.users.alice),
      preferred_username: `Alice${ids.users.alice}`,
    });
  });

  it('leaves picture out for a user without avatar and lists no regions they do not have', async ({
    app,
  }) => {
    const tokens = await tokensOf(app, ids.users.orga, ['openid', 'profile', 'regions']);
    const claims = (await userinfoRequest(app, tokens.access_token)).json<
      Record<string, unknown>
    >();
    expect(claims).not.toHaveProperty('picture');
    expect(claims).not.toHaveProperty('email');
    expect(claims).toMatchObject({ given_name: 'Olga', locale: 'de-DE' });
    expect(claims.region_ambassador).toEqual(expect.arrayContaining(['387', '6704']));
  });

  it('answers POST like GET', async ({ app }) => {
    const tokens = await tokensOf(app, ids.users.bob);
    const get = await userinfoRequest(app, tokens.access_token);
    const post = await app.inject({
      method: 'POST',
      url: '/oauth/userinfo',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(post.statusCode).toBe(200);
    expect(post.json()).toEqual(get.json());
  });

  it('ignores a token in the query: 401 with a bare Bearer challenge', async ({ app }) => {
    const tokens = await tokensOf(app, ids.users.bob);
    const response = await app.inject({
      method: 'GET',
      url: `/oauth/userinfo?access_token=${tokens.access_token}`,
    });
    expect(response.statusCode).toBe(401);
    // RFC 6750 3.1: no error code when the request carried no token at all.
    expect(response.headers['www-authenticate']).toBe('Bearer realm="oauth"');
  });

  it('ignores a token in a form body', async ({ app }) => {
    const tokens = await tokensOf(app, ids.users.bob);
    const response = await app.inject({
      method: 'POST',
      url: '/oauth/userinfo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ access_token: tokens.access_token }).toString(),
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="oauth"');
  });

  it('refuses a malformed or forged token with invalid_token', async ({ app }) => {
    expectInvalidToken(await userinfoRequest(app, 'not-a-jwt'));
    const tokens = await tokensOf(app, ids.users.bob);
    const [header, payload] = tokens.access_token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(342)}`;
    expectInvalidToken(await userinfoRequest(app, forged));
  });

  it('refuses an ID token: it is not an access token (typ)', async ({ app }) => {
    const tokens = await tokensOf(app, ids.users.bob);
    expectInvalidToken(await userinfoRequest(app, tokens.id_token!));
  });

  it('refuses an expired access token', async ({ app }) => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await servicesOf(app).keys.signJwt(
      {
        sub: String(ids.users.bob),
        aud: DemoClientId.public,
        client_id: DemoClientId.public,
        scope: 'openid',
        jti: 'expired-token',
        iat: now - 7200,
        exp: now - 3600,
      },
      { typ: 'at+jwt' },
    );
    expectInvalidToken(await userinfoRequest(app, expired));
  });

  it('refuses a revoked access token', async ({ app }) => {
    const tokens = await tokensOf(app, ids.users.bob);
    const { jti, exp } = decodeJwt(tokens.access_token);
    await servicesOf(app).denyList.deny(jti!, exp! * 1000);
    expectInvalidToken(await userinfoRequest(app, tokens.access_token));
  });

  it('refuses the token of a user who was deactivated', async ({ app }) => {
    const { createUser } = await import('@foodshare/domain');
    const em = app.orm.em.fork();
    const user = await createUser(em, {
      firstName: 'Dora',
      lastName: 'Deactivated',
      email: 'userinfo-deactivated@example.org',
      password: 'a-long-enough-password',
    });
    const tokens = await tokensOf(app, user.id);
    expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(200);
    await em.execute('update users set activated = false where id = ?', [user.id]);
    expectInvalidToken(await userinfoRequest(app, tokens.access_token));
  });

  it('answers insufficient_scope for a token without openid', async ({ app }) => {
    const tokens = await tokensOf(app, ids.users.bob);
    const narrowed = await refreshRequest(app, DemoClientId.public, tokens.refresh_token!, {
      scope: 'profile',
    });
    const response = await userinfoRequest(app, narrowed.json<TokenResponse>().access_token);
    expect(response.statusCode).toBe(403);
    expect(response.headers['www-authenticate']).toContain('error="insufficient_scope"');
  });

  it('allows any origin, on answers and errors, and answers the preflight', async ({ app }) => {
    const tokens = await tokensOf(app, ids.users.bob);
    const ok = await userinfoRequest(app, tokens.access_token);
    const refused = await userinfoRequest(app, 'nope');
    for (const response of [ok, refused]) {
      expect(response.headers['access-control-allow-origin']).toBe('*');
    }
    expect(ok.headers['cache-control']).toBe('no-store');
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/oauth/userinfo',
      headers: {
        origin: 'https://client.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Authorization/i);
  });
});

import { servicesOf } from '../../../test-support/build-test-app.ts';
import { announceClientRowChange } from '@foodshare/server-kit/oauth-grants';
import { addAdmin, addMembership, DemoRegionId } from '@foodshare/domain';
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { AuthApp } from '../../../app.ts';
import type { TokenResponse } from '../issue-tokens.ts';
import {
  ALL_SCOPES,
  DemoClientId,
  refreshRequest,
  registerTestClient,
  tokensFor,
  userinfoRequest,
} from '../../../test-support/token-helpers.ts';
import { describe, expect, ids, it } from '../../../test-support/fixtures.ts';

describe('refresh_token grant (RFC 6749 6, RFC 9700 4.14)', () => {
  async function claims(app: AuthApp, token: string): Promise<JWTPayload> {
    const { payload } = await jwtVerify(
      token,
      createLocalJWKSet(await servicesOf(app).keys.publicJwks()),
    );
    return payload;
  }

  function expectInvalidGrant(
    response: Awaited<ReturnType<typeof refreshRequest>>,
    description?: string,
  ) {
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_grant',
      error_description: description ?? expect.any(String),
    });
  }

  const refresh = (app: AuthApp, token: string, extra: Record<string, string> = {}) =>
    refreshRequest(app, DemoClientId.public, token, extra);

  it('rotates on every use: new tokens, and a new refresh token each time', async ({ app }) => {
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.bob });
    const response = await refresh(app, first.refresh_token!);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const second = response.json<TokenResponse>();
    expect(second).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: first.scope,
      refresh_token: expect.any(String),
      id_token: expect.any(String),
    });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await userinfoRequest(app, second.access_token)).statusCode).toBe(200);
    const third = await refresh(app, second.refresh_token!);
    expect(third.statusCode).toBe(200);
  });

  it('refuses the old refresh token after a rotation, and revokes the whole family', async ({
    app,
  }) => {
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.bob });
    const second = (await refresh(app, first.refresh_token!)).json<TokenResponse>();

    expectInvalidGrant(await refresh(app, first.refresh_token!));

    // RFC 9700 4.14.2: the reuse may be an attacker's; every token of the family dies.
    expectInvalidGrant(await refresh(app, second.refresh_token!));
    for (const accessToken of [first.access_token, second.access_token]) {
      expect((await userinfoRequest(app, accessToken)).statusCode).toBe(401);
    }
  });

  it('keeps sub, aud and auth_time in the refreshed ID token and drops the nonce (OIDC Core 12.2)', async ({
    app,
  }) => {
    const authTime = Math.floor(Date.now() / 1000) - 3000;
    const first = await tokensFor(app, {
      clientId: DemoClientId.public,
      userId: ids.users.bob,
      nonce: 'the-nonce',
      authTime,
    });
    const original = await claims(app, first.id_token!);
    expect(original.nonce).toBe('the-nonce');
    const refreshed = await claims(
      app,
      (await refresh(app, first.refresh_token!)).json<TokenResponse>().id_token!,
    );
    expect(refreshed).not.toHaveProperty('nonce');
    expect(refreshed).toMatchObject({
      sub: original.sub,
      aud: original.aud,
      azp: DemoClientId.public,
      auth_time: authTime,
      iss: servicesOf(app).issuer,
    });
  });

  it('may narrow the scope; the next refresh may still ask for the whole grant', async ({
    app,
  }) => {
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.alice });
    const narrowed = await refresh(app, first.refresh_token!, { scope: 'openid email' });
    expect(narrowed.statusCode).toBe(200);
    const tokens = narrowed.json<TokenResponse>();
    expect(tokens.scope).toBe('openid email');
    expect((await claims(app, tokens.access_token)).scope).toBe('openid email');
    const userinfo = (await userinfoRequest(app, tokens.access_token)).json<
      Record<string, unknown>
    >();
    expect(Object.keys(userinfo).sort()).toEqual([
      'email',
      'email_verified',
      'preferred_username',
      'sub',
    ]);
    // RFC 6749 6: the refresh token keeps the originally granted scope.
    const whole = await refresh(app, tokens.refresh_token!);
    expect(whole.json<TokenResponse>().scope).toBe('openid profile email regions');
  });

  it('refuses a broader scope with invalid_scope and leaves the token usable', async ({ app }) => {
    const first = await tokensFor(app, {
      clientId: DemoClientId.public,
      userId: ids.users.alice,
      scopes: ['openid', 'profile'],
    });
    const broader = await refresh(app, first.refresh_token!, { scope: 'openid profile email' });
    expect(broader.statusCode).toBe(400);
    expect(broader.json()).toMatchObject({ error: 'invalid_scope' });
    expect((await refresh(app, first.refresh_token!)).statusCode).toBe(200);
  });

  it('refuses a refresh token presented by another client', async ({ app }) => {
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.alice });
    expectInvalidGrant(await refreshRequest(app, DemoClientId.regional, first.refresh_token!));
    // Not a reuse of the rightful client's token: it keeps working.
    expect((await refresh(app, first.refresh_token!)).statusCode).toBe(200);
  });

  it.for<[string, string]>([
    ['garbage', 'not-a-token'],
    ['a JWS instead of a JWE', 'eyJhbGciOiJub25lIn0.eyJmaWQiOiJ4In0.'],
    [
      'a forged JWE',
      'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA',
    ],
  ])('refuses %s as refresh token', async ([, token], { app }) => {
    expectInvalidGrant(await refresh(app, token));
  });

  it('checks the region requirement again: a user who left Musterstadt is refused by demo-regional', async ({
    app,
    newUser,
  }) => {
    const userId = await newUser({ memberOf: [DemoRegionId.Musterstadt] });
    const first = await tokensFor(app, { clientId: DemoClientId.regional, userId });
    const second = await refreshRequest(app, DemoClientId.regional, first.refresh_token!);
    expect(second.statusCode).toBe(200);
    await app.orm.em.fork().execute('delete from region_memberships where user_id = ?', [userId]);
    expectInvalidGrant(
      await refreshRequest(app, DemoClientId.regional, second.json<TokenResponse>().refresh_token!),
      'User not in required regions',
    );
  });

  it('lets a member of the required region refresh at demo-regional', async ({ app }) => {
    const first = await tokensFor(app, {
      clientId: DemoClientId.regional,
      userId: ids.users.alice,
    });
    expect(
      (await refreshRequest(app, DemoClientId.regional, first.refresh_token!)).statusCode,
    ).toBe(200);
  });

  it('revokes refresh tokens when the user joins a region (docs/domain.md §5.4)', async ({
    app,
    newUser,
  }) => {
    const userId = await newUser();
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId });
    await addMembership(app.orm.em.fork(), userId, DemoRegionId.Beispieldorf);
    expectInvalidGrant(await refresh(app, first.refresh_token!));
    // A grant made after the change is not affected.
    const later = await tokensFor(app, { clientId: DemoClientId.public, userId });
    expect((await refresh(app, later.refresh_token!)).statusCode).toBe(200);
  });

  it('revokes refresh tokens when the user becomes a region admin (docs/domain.md §5.4)', async ({
    app,
    newUser,
  }) => {
    const userId = await newUser({ memberOf: [DemoRegionId.Beispieldorf] });
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId });
    await addAdmin(app.orm.em.fork(), userId, DemoRegionId.Beispieldorf);
    expectInvalidGrant(await refresh(app, first.refresh_token!));
  });

  it('revokes refresh tokens when the user stops being a region admin (docs/domain.md §5.4)', async ({
    app,
    newUser,
  }) => {
    const userId = await newUser({ memberOf: [DemoRegionId.Beispieldorf] });
    await addAdmin(app.orm.em.fork(), userId, DemoRegionId.Beispieldorf);
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId });
    expect((await refresh(app, first.refresh_token!)).statusCode).toBe(200);
    const second = await tokensFor(app, { clientId: DemoClientId.public, userId });
    await app.orm.em
      .fork()
      .execute('delete from region_admins where user_id = ? and region_id = ?', [
        userId,
        DemoRegionId.Beispieldorf,
      ]);
    expectInvalidGrant(await refresh(app, second.refresh_token!));
  });

  it('revokes refresh tokens when the user leaves a region (docs/domain.md §5.4)', async ({
    app,
    newUser,
  }) => {
    // demo-public requires no region: the refusal comes from the change, not the region gate.
    const userId = await newUser({
      memberOf: [DemoRegionId.Beispieldorf, DemoRegionId.Musterstadt],
    });
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId });
    await app.orm.em
      .fork()
      .execute('delete from region_memberships where user_id = ? and region_id = ?', [
        userId,
        DemoRegionId.Beispieldorf,
      ]);
    expectInvalidGrant(
      await refresh(app, first.refresh_token!),
      'The grant was revoked because the user’s regions changed',
    );
    const { familyId } = (await servicesOf(app).refreshTokens.open(first.refresh_token!))!;
    expect(await servicesOf(app).families.find(familyId, DemoClientId.public)).toBeNull();
  });

  it('revokes refresh tokens when the user’s membership is deactivated (docs/domain.md §5.4)', async ({
    app,
    newUser,
  }) => {
    const userId = await newUser({ memberOf: [DemoRegionId.Beispieldorf] });
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId });
    await app.orm.em
      .fork()
      .execute('update region_memberships set active = false where user_id = ?', [userId]);
    expectInvalidGrant(await refresh(app, first.refresh_token!));
  });

  it('compares the region change with the grant on the database’s clock, not this server’s', async ({
    app,
    newUser,
  }) => {
    const userId = await newUser();
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId });
    // As if this server's clock ran a minute ahead of PostgreSQL's when the grant began: by
    // that clock the grant is younger than the change below, which still must end it.
    const { familyId } = (await servicesOf(app).refreshTokens.open(first.refresh_token!))!;
    const key = `oauth:family:${familyId}`;
    const stored = await app.kv.getWithTtl(key);
    const family = JSON.parse(stored!.value) as { createdAt: number };
    family.createdAt += 60_000;
    await app.kv.set(key, JSON.stringify(family), stored!.ttlMs);
    await addMembership(app.orm.em.fork(), userId, DemoRegionId.Beispieldorf);
    expectInvalidGrant(
      await refresh(app, first.refresh_token!),
      'The grant was revoked because the user’s regions changed',
    );
  });

  describe('the client’s registered scopes (an administrator may take one away)', () => {
    let clients = 0;

    async function clientWithAllScopes(app: AuthApp): Promise<string> {
      clients += 1;
      const clientId = `refresh-test-scopes-${clients}`;
      await registerTestClient(app, { clientId });
      return clientId;
    }

    // As the admin page changes a client: the row, then its announcement (docs/oauth.md §6.4).
    const setClientScopes = async (app: AuthApp, clientId: string, scopes: string[]) => {
      await app.orm.em
        .fork()
        .execute('update oauth_clients set scopes = ?::text[] where client_id = ?', [
          `{${scopes.join(',')}}`,
          clientId,
        ]);
      await announceClientRowChange(servicesOf(app).kv, clientId);
    };

    it('leaves out of a refresh a scope the client is no longer registered for', async ({
      app,
    }) => {
      const clientId = await clientWithAllScopes(app);
      const first = await tokensFor(app, { clientId, userId: ids.users.alice });
      expect(first.scope).toBe('openid profile email regions');
      await setClientScopes(app, clientId, ['openid', 'profile', 'regions']);

      const response = await refreshRequest(app, clientId, first.refresh_token!);
      expect(response.statusCode).toBe(200);
      const tokens = response.json<TokenResponse>();
      expect(tokens.scope).toBe('openid profile regions');
      expect((await claims(app, tokens.access_token)).scope).toBe('openid profile regions');
      const userinfo = (await userinfoRequest(app, tokens.access_token)).json<
        Record<string, unknown>
      >();
      expect(userinfo).not.toHaveProperty('email');
      expect(userinfo).not.toHaveProperty('email_verified');
      expect(userinfo).toHaveProperty('name');

      // Asking for it explicitly is asking for more than the client may have.
      const asked = await refreshRequest(app, clientId, tokens.refresh_token!, {
        scope: 'openid email',
      });
      expect(asked.statusCode).toBe(400);
      expect(asked.json()).toMatchObject({ error: 'invalid_scope' });
    });

    it('gives a scope back when the client is registered for it again', async ({ app }) => {
      const clientId = await clientWithAllScopes(app);
      const first = await tokensFor(app, { clientId, userId: ids.users.alice });
      await setClientScopes(app, clientId, ['openid', 'profile', 'regions']);
      const narrowed = (
        await refreshRequest(app, clientId, first.refresh_token!)
      ).json<TokenResponse>();
      await setClientScopes(app, clientId, ALL_SCOPES);
      const restored = await refreshRequest(app, clientId, narrowed.refresh_token!);
      // The user granted email; only the client's registration had withheld it.
      expect(restored.json<TokenResponse>().scope).toBe('openid profile email regions');
    });

    it('refuses a refresh when the client keeps no scope of the grant', async ({ app }) => {
      const clientId = await clientWithAllScopes(app);
      // Every grant has openid and every client keeps it (a table constraint), so this takes a
      // grant without openid, as no authorization request makes: the guard must still hold.
      const first = await tokensFor(app, {
        clientId,
        userId: ids.users.alice,
        scopes: ['profile', 'email'],
      });
      await setClientScopes(app, clientId, ['openid', 'regions']);
      const response = await refreshRequest(app, clientId, first.refresh_token!);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_scope' });
    });
  });

  it('refuses, and revokes the family, when the user was deactivated', async ({ app, newUser }) => {
    const userId = await newUser();
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId });
    await app.orm.em.fork().execute('update users set activated = false where id = ?', [userId]);
    expectInvalidGrant(await refresh(app, first.refresh_token!));
    const { familyId } = (await servicesOf(app).refreshTokens.open(first.refresh_token!))!;
    expect(await servicesOf(app).families.find(familyId, DemoClientId.public)).toBeNull();
    const userinfo = await userinfoRequest(app, first.access_token);
    expect(userinfo.statusCode).toBe(401);
    expect(userinfo.json()).toMatchObject({
      error: 'invalid_token',
      error_description: 'The token was revoked',
    });
  });

  it('leaves exactly one valid family member after 20 parallel refreshes of one token', async ({
    app,
  }) => {
    const first = await tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.bob });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => refresh(app, first.refresh_token!)),
    );
    const winners = responses.filter((response) => response.statusCode === 200);
    expect(winners).toHaveLength(1);
    for (const loser of responses.filter((response) => response.statusCode !== 200)) {
      expect(loser.json()).toMatchObject({ error: 'invalid_grant' });
    }
    const winner = winners[0]!.json<TokenResponse>();
    const { refreshTokens, families } = servicesOf(app);
    const original = (await refreshTokens.open(first.refresh_token!))!;
    const rotated = (await refreshTokens.open(winner.refresh_token!))!;
    expect(rotated.familyId).toBe(original.familyId);
    expect(await families.isRefreshTokenLive(original.familyId, original.jti)).toBe(false);
    expect(await families.isRefreshTokenLive(rotated.familyId, rotated.jti)).toBe(true);
    // The race was not taken for theft: the winner's tokens work.
    expect((await userinfoRequest(app, winner.access_token)).statusCode).toBe(200);
    expect((await refresh(app, winner.refresh_token!)).statusCode).toBe(200);
  });
});

import { servicesOf } from '../../test-support/build-test-app.ts';
import type { AuthApp } from '../../app.ts';
import {
  clientFormEndpoint,
  confidentialBasic,
  DEMO_CLIENT_SECRET,
  DemoClientId,
  expectClientCredentialsRequired,
  refreshRequest,
  tokensFor,
  userinfoRequest,
} from '../../test-support/token-helpers.ts';
import { describe, expect, ids, it } from '../../test-support/fixtures.ts';

describe('POST /oauth/revoke (RFC 7009)', () => {
  const publicTokens = (app: AuthApp) =>
    tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.bob });

  const endpoint = (app: AuthApp) => clientFormEndpoint(app, '/oauth/revoke');
  const revoke = (
    app: AuthApp,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) => endpoint(app).post(fields, headers);

  const revokeAsPublic = (app: AuthApp, token: string, extra: Record<string, string> = {}) =>
    revoke(app, { token, client_id: DemoClientId.public, ...extra });

  function expectRevoked200(response: Awaited<ReturnType<typeof revoke>>) {
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(response.headers['cache-control']).toBe('no-store');
  }

  it('revokes a refresh token with its family: the refresh and access tokens of the grant die', async ({
    app,
  }) => {
    const tokens = await publicTokens(app);
    expectRevoked200(
      await revokeAsPublic(app, tokens.refresh_token!, { token_type_hint: 'refresh_token' }),
    );
    const refresh = await refreshRequest(app, DemoClientId.public, tokens.refresh_token!);
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(401);
  });

  it('revokes an access token: userinfo refuses it, the refresh token still works', async ({
    app,
  }) => {
    const tokens = await publicTokens(app);
    expectRevoked200(await revokeAsPublic(app, tokens.access_token));
    expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(401);
    expect((await refreshRequest(app, DemoClientId.public, tokens.refresh_token!)).statusCode).toBe(
      200,
    );
  });

  it('ignores a wrong token_type_hint (RFC 7009 2.1)', async ({ app }) => {
    const tokens = await publicTokens(app);
    expectRevoked200(
      await revokeAsPublic(app, tokens.access_token, { token_type_hint: 'refresh_token' }),
    );
    expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(401);
  });

  it('answers 200 for an unknown or already revoked token', async ({ app }) => {
    expectRevoked200(await revokeAsPublic(app, 'no-such-token'));
    const tokens = await publicTokens(app);
    expectRevoked200(await revokeAsPublic(app, tokens.refresh_token!));
    expectRevoked200(await revokeAsPublic(app, tokens.refresh_token!));
  });

  it("does not revoke another client's tokens, and still answers 200", async ({ app }) => {
    const tokens = await publicTokens(app);
    expectRevoked200(
      await revoke(app, { token: tokens.access_token }, { authorization: confidentialBasic() }),
    );
    expectRevoked200(
      await revoke(app, { token: tokens.refresh_token! }, { authorization: confidentialBasic() }),
    );
    expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(200);
    expect((await refreshRequest(app, DemoClientId.public, tokens.refresh_token!)).statusCode).toBe(
      200,
    );
  });

  it('authenticates confidential clients as the token endpoint does', async ({ app }) => {
    await expectClientCredentialsRequired(endpoint(app));
    const post = await revoke(app, {
      token: 'whatever',
      client_id: DemoClientId.confidential,
      client_secret: DEMO_CLIENT_SECRET,
    });
    expectRevoked200(post);
  });

  it('requires the token parameter: invalid_request', async ({ app }) => {
    const response = await revoke(app, { client_id: DemoClientId.public });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a NUL character in a parameter with an invalid_request that says so', async ({
    app,
  }) => {
    const response = await revoke(app, { token: 'ab\u0000c', client_id: DemoClientId.public });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_request',
      error_description: 'token must not contain the NUL character (U+0000)',
    });
  });

  it('refuses a parameter sent twice with an invalid_request that says so', async ({ app }) => {
    const response = await endpoint(app).postRaw(
      `token=a&token=b&client_id=${DemoClientId.public}`,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_request',
      error_description: 'token must be sent once',
    });
  });

  it('accepts form-encoded bodies only', async ({ app }) => {
    const response = await endpoint(app).postJson({ token: 'x', client_id: DemoClientId.public });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('servicesOf(app).grantRevocation.revokeGrant (connected apps)', () => {
  it("revokes every family of the user with the client and nothing of others'", async ({ app }) => {
    const grant = () => tokensFor(app, { clientId: DemoClientId.public, userId: ids.users.carla });
    const [one, two] = [await grant(), await grant()];
    const otherClient = await tokensFor(app, {
      clientId: DemoClientId.regional,
      userId: ids.users.carla,
    });
    const otherUser = await tokensFor(app, {
      clientId: DemoClientId.public,
      userId: ids.users.bob,
    });

    await servicesOf(app).grantRevocation.revokeGrant(ids.users.carla, DemoClientId.public);

    for (const tokens of [one, two]) {
      expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(401);
      expect(
        (await refreshRequest(app, DemoClientId.public, tokens.refresh_token!)).statusCode,
      ).toBe(400);
    }
    expect((await userinfoRequest(app, otherClient.access_token)).statusCode).toBe(200);
    expect((await userinfoRequest(app, otherUser.access_token)).statusCode).toBe(200);
    expect(
      (await refreshRequest(app, DemoClientId.regional, otherClient.refresh_token!)).statusCode,
    ).toBe(200);
  });
});

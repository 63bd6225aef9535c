import { DEMO_REDIRECT_URI, DemoClientId } from '@foodshare/domain';
import { type SignedInClient } from '@foodshare/server-kit/test-support';
import type { AuthApp } from '../../app.ts';
import {
  allowOnConsentPage,
  authorizeUrl,
  callbackParams,
  formBody,
  hiddenField,
  pkcePair,
} from '../../test-support/authorization-helpers.ts';
import { confidentialBasic, postForm } from '../../test-support/token-helpers.ts';
import { describe, expect, ids, it, test } from '../../test-support/fixtures.ts';

// demo-confidential introspects as the resource server the public app's tokens go to.
test.override(
  'appEnv',
  { scope: 'file' },
  { INTROSPECTION_RESOURCE_SERVERS: DemoClientId.confidential },
);

describe('connected apps, GET /connected-apps and POST /connected-apps/{clientId}/revoke', () => {
  let alice: SignedInClient;

  test.beforeEach(async ({ signIn, services }) => {
    alice = await signIn(ids.users.alice);
    for (const client of Object.values(DemoClientId)) {
      await services.consents.revoke(ids.users.alice, client);
    }
  });

  const page = (app: AuthApp, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/connected-apps', cookies: alice.cookies, headers });

  const revoke = (app: AuthApp, clientId: string, csrf?: string) =>
    app.inject({
      method: 'POST',
      url: `/connected-apps/${clientId}/revoke`,
      cookies: alice.cookies,
      ...formBody(csrf === undefined ? {} : { csrf }),
    });

  /** A code for alice at demo-public through the real flow, remembering the consent or not. */
  async function codeOfAlice(app: AuthApp, remember = true) {
    const { verifier, challenge } = pkcePair();
    const start = await app.inject({
      method: 'GET',
      url: authorizeUrl({ code_challenge: challenge }),
      cookies: alice.cookies,
    });
    const decided = await allowOnConsentPage(app, alice.cookies, start, { remember });
    return { code: callbackParams(decided).get('code') ?? '', verifier };
  }

  const exchange = (app: AuthApp, { code, verifier }: { code: string; verifier: string }) =>
    app.inject({
      method: 'POST',
      url: '/oauth/token',
      ...formBody({
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT_URI,
        client_id: DemoClientId.public,
        code_verifier: verifier,
      }),
    });

  /** Tokens for alice at demo-public through the real flow, remembering the consent or not. */
  async function tokensOfAlice(app: AuthApp, remember = true) {
    const response = await exchange(app, await codeOfAlice(app, remember));
    expect(response.statusCode).toBe(200);
    return response.json<{ access_token: string; refresh_token: string }>();
  }

  const userinfo = (app: AuthApp, accessToken: string) =>
    app.inject({
      method: 'GET',
      url: '/oauth/userinfo',
      headers: { authorization: `Bearer ${accessToken}` },
    });

  it('sends a visitor without a session to the login page, which leads back here', async ({
    app,
  }) => {
    const response = await app.inject({ method: 'GET', url: '/connected-apps' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login');
  });

  it('says so when nothing is remembered', async ({ app }) => {
    const response = await page(app);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('No application has access to your account.');
  });

  it('lists each remembered consent with client name, scopes in words, date and a revoke form', async ({
    app,
    services,
  }) => {
    await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'email']);
    await services.consents.remember(ids.users.alice, DemoClientId.regional, ['openid']);
    const response = await page(app);
    expect(response.body).toContain('Demo-App (öffentlich)');
    expect(response.body).toContain('Demo-App Musterstadt');
    expect(response.body).toContain('Your email address');
    expect(response.body).toMatch(/<time datetime="\d{4}-\d{2}-\d{2}T/);
    expect(response.body).toContain('action="/connected-apps/demo-public/revoke"');
    expect(response.body).toContain('action="/connected-apps/demo-regional/revoke"');
    expect(hiddenField(response.body, 'csrf')).toBe(alice.headers['x-csrf-token']);
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('speaks German with Accept-Language de', async ({ app, services }) => {
    await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'email']);
    const response = await page(app, { 'accept-language': 'de-AT' });
    expect(response.body).toContain('Verbundene Anwendungen');
    expect(response.body).toContain('Deine E-Mail-Adresse');
    expect(response.body).toContain('Zugriff widerrufen');
  });

  it('revokes with the CSRF field: 303 back, consent gone, the screen shows again', async ({
    app,
    services,
  }) => {
    await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid', 'profile']);
    const before = (await services.metrics.auditEventsTotal.get()).values.find(
      (value) => value.labels.event === 'consent_revoked',
    );
    const response = await revoke(app, DemoClientId.public, alice.headers['x-csrf-token']);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/connected-apps');
    expect(await services.consents.find(ids.users.alice, DemoClientId.public)).toBeNull();
    const again = await app.inject({ method: 'GET', url: authorizeUrl(), cookies: alice.cookies });
    expect(String(again.headers.location)).toMatch(/^\/oauth\/consent\?request=/);
    const after = (await services.metrics.auditEventsTotal.get()).values.find(
      (value) => value.labels.event === 'consent_revoked',
    );
    expect(after?.value).toBe((before?.value ?? 0) + 1);
  });

  it('ends the codes not yet exchanged too; a new authorization works', async ({ app }) => {
    const issuedBefore = await codeOfAlice(app);
    expect((await revoke(app, DemoClientId.public, alice.headers['x-csrf-token'])).statusCode).toBe(
      303,
    );
    const refused = await exchange(app, issuedBefore);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid or expired code',
    });
    const tokens = await tokensOfAlice(app);
    expect((await userinfo(app, tokens.access_token)).statusCode).toBe(200);
  });

  it('refuses a revoke without the CSRF field, keeping the consent', async ({ app, services }) => {
    await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid']);
    const response = await revoke(app, DemoClientId.public);
    expect(response.statusCode).toBe(403);
    expect(await services.consents.find(ids.users.alice, DemoClientId.public)).not.toBeNull();
  });

  it('checks the form field, not the header: a revoke without the field is refused', async ({
    app,
    services,
  }) => {
    await services.consents.remember(ids.users.alice, DemoClientId.public, ['openid']);
    const form = formBody({});
    const response = await app.inject({
      method: 'POST',
      url: `/connected-apps/${DemoClientId.public}/revoke`,
      cookies: alice.cookies,
      headers: { ...form.headers, ...alice.headers },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(403);
  });

  it('revoking kills the grant’s tokens: userinfo and refresh fail afterwards', async ({ app }) => {
    const tokens = await tokensOfAlice(app);
    expect((await userinfo(app, tokens.access_token)).statusCode).toBe(200);
    await revoke(app, DemoClientId.public, alice.headers['x-csrf-token']);
    expect((await userinfo(app, tokens.access_token)).statusCode).toBe(401);
    const refresh = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      ...formBody({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: DemoClientId.public,
      }),
    });
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('answers 404 for a client id outside the client id grammar', async ({ app }) => {
    const response = await revoke(app, 'no%20such', alice.headers['x-csrf-token']);
    expect(response.statusCode).toBe(404);
  });

  const refresh = (app: AuthApp, refreshToken: string) =>
    postForm(app, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: DemoClientId.public,
    });

  const introspect = (app: AuthApp, token: string) =>
    postForm(app, '/oauth/introspect', { token }, { authorization: confidentialBasic() });

  const grantsJson = (app: AuthApp) =>
    app.inject({ method: 'GET', url: '/oauth/grants', cookies: alice.cookies });

  const revokeJson = (
    app: AuthApp,
    clientId: string,
    headers: Record<string, string> = alice.headers,
  ) =>
    app.inject({
      method: 'DELETE',
      url: `/oauth/grants/${clientId}`,
      cookies: alice.cookies,
      headers,
    });

  describe('a grant made without "remember this choice"', () => {
    it('is listed on the page with name, scopes, last use and a revoke form', async ({
      app,
      services,
    }) => {
      await tokensOfAlice(app, false);
      expect(await services.consents.find(ids.users.alice, DemoClientId.public)).toBeNull();
      const response = await page(app);
      expect(response.body).toContain('Demo-App (öffentlich)');
      expect(response.body).toContain('Your name, profile picture and language');
      expect(response.body).toContain('Last used on');
      expect(response.body).not.toContain('Your choice is remembered');
      expect(response.body).toContain('action="/connected-apps/demo-public/revoke"');
    });

    it('is listed as JSON for the session, with its last use moved on by a refresh', async ({
      app,
    }) => {
      const tokens = await tokensOfAlice(app, false);
      const first = await grantsJson(app);
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('no-store');
      const [listed, ...others] = first.json<{ lastUsedAt: string; grantedAt: string }[]>();
      expect(others).toEqual([]);
      expect(listed).toMatchObject({
        clientId: DemoClientId.public,
        name: 'Demo-App (öffentlich)',
        scopes: expect.arrayContaining(['openid', 'profile']),
        remembered: false,
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await refresh(app, tokens.refresh_token)).statusCode).toBe(200);
      const [afterRefresh] = (await grantsJson(app)).json<{ lastUsedAt: string }[]>();
      expect(Date.parse(afterRefresh!.lastUsedAt)).toBeGreaterThan(Date.parse(listed!.lastUsedAt));
    });

    it('revoked by DELETE /oauth/grants/{clientId}: refresh, userinfo and introspection fail', async ({
      app,
    }) => {
      const tokens = await tokensOfAlice(app, false);
      expect((await introspect(app, tokens.access_token)).json()).toMatchObject({ active: true });
      const response = await revokeJson(app, DemoClientId.public);
      expect(response.statusCode).toBe(204);
      const refused = await refresh(app, tokens.refresh_token);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'invalid_grant' });
      expect((await userinfo(app, tokens.access_token)).statusCode).toBe(401);
      expect((await introspect(app, tokens.access_token)).json()).toEqual({ active: false });
      expect((await introspect(app, tokens.refresh_token)).json()).toEqual({ active: false });
      expect((await grantsJson(app)).json()).toEqual([]);
    });

    it('revoked by the page form: its refresh token fails and it is no longer listed', async ({
      app,
    }) => {
      const tokens = await tokensOfAlice(app, false);
      expect(
        (await revoke(app, DemoClientId.public, alice.headers['x-csrf-token'])).statusCode,
      ).toBe(303);
      expect((await refresh(app, tokens.refresh_token)).statusCode).toBe(400);
      expect((await userinfo(app, tokens.access_token)).statusCode).toBe(401);
      expect((await page(app)).body).toContain('No application has access to your account.');
    });

    it('ends a code not yet exchanged when the app is revoked', async ({ app }) => {
      await tokensOfAlice(app, false);
      const pending = await codeOfAlice(app, false);
      expect((await revokeJson(app, DemoClientId.public)).statusCode).toBe(204);
      expect((await exchange(app, pending)).json()).toMatchObject({ error: 'invalid_grant' });
    });
  });

  it('marks a remembered consent and merges it with the live grant of the same client', async ({
    app,
  }) => {
    await tokensOfAlice(app, true);
    const listed = (await grantsJson(app)).json<{ clientId: string; remembered: boolean }[]>();
    expect(listed).toEqual([
      expect.objectContaining({ clientId: DemoClientId.public, remembered: true }),
    ]);
    expect((await page(app)).body).toContain('Your choice is remembered');
  });

  it('refuses DELETE /oauth/grants without the X-CSRF-Token header, keeping the grant', async ({
    app,
  }) => {
    const tokens = await tokensOfAlice(app, false);
    const response = await revokeJson(app, DemoClientId.public, {});
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CSRF_FAILED' });
    expect((await refresh(app, tokens.refresh_token)).statusCode).toBe(200);
  });

  it('answers 401 to GET and DELETE /oauth/grants without a session', async ({ app }) => {
    const list = await app.inject({ method: 'GET', url: '/oauth/grants' });
    expect(list.statusCode).toBe(401);
    expect(list.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const revoked = await app.inject({ method: 'DELETE', url: '/oauth/grants/demo-public' });
    expect(revoked.statusCode).toBe(401);
  });

  it('answers 404 to a DELETE /oauth/grants/{clientId} outside the client id grammar', async ({
    app,
  }) => {
    const response = await revokeJson(app, 'no%20such');
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toMatch(/stack|at \//);
  });
});

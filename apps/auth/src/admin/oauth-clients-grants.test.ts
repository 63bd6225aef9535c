import { servicesOf } from '../test-support/build-test-app.ts';
import { type SignedInClient } from '@foodshare/server-kit/test-support';
import type { AuthApp } from '../app.ts';
import {
  allowOnConsentPage,
  authorizeUrl,
  callbackParams,
} from '../test-support/authorization-helpers.ts';
import { csrfOf, findClientRow, postForm } from '../test-support/oauth-admin-helpers.ts';
import {
  DEMO_REDIRECT_URI,
  issueCode,
  issueTokens,
  pkcePair,
  planAccessToken,
  refreshRequest,
  registerTestClient,
  tokenRequest,
  tokensFor,
  userinfoRequest,
} from '../test-support/token-helpers.ts';
import { clientGrantCutoffKey, newTokenId, parseCutoff } from '@foodshare/server-kit/oauth-grants';
import { loadTokenSubject } from '../claims/user-claims.ts';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A client deactivated or deleted loses every grant it held (ClientGrantCutoffs): a client
 * reactivated, or a client_id registered again (perhaps by someone else), starts without the
 * users' remembered consents and without a single working token of before.
 */
describe('the grants of a deactivated or deleted OAuth client', () => {
  let admin: SignedInClient;
  let alice: SignedInClient;
  let sequence = 0;

  test.beforeAll(async ({ signIn }) => {
    admin = await signIn(ids.users.orga);
    alice = await signIn(ids.users.alice);
  });

  const authorize = (app: AuthApp, clientId: string, extra: Record<string, string> = {}) =>
    app.inject({
      method: 'GET',
      url: authorizeUrl({ client_id: clientId, ...extra }),
      cookies: alice.cookies,
    });

  /** A client with a user's remembered consent, an access token and a refresh token. */
  async function clientWithGrants(app: AuthApp) {
    sequence += 1;
    const clientId = `ending-grants-${sequence}`;
    await registerTestClient(app, { clientId });
    const row = await findClientRow(app, clientId);
    if (!row) throw new Error('the client was not created');
    await servicesOf(app).consents.remember(ids.users.alice, clientId, ['openid', 'profile']);
    const tokens = await tokensFor(app, { clientId, userId: ids.users.alice });
    // Everything works before: the consent skips the screen, even with prompt=none.
    expect(callbackParams(await authorize(app, clientId, { prompt: 'none' })).has('code')).toBe(
      true,
    );
    expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(200);
    return { clientId, rowId: row.id, tokens };
  }

  /**
   * Waits until grants to the client count again: past its cutoff (which reaches a margin beyond
   * the ending), and into the next whole second, since an access token's `iat` of the cutoff's
   * own second is void.
   */
  async function pastTheCutoff(app: AuthApp, clientId: string) {
    const cutoff = parseCutoff(await app.kv.get(clientGrantCutoffKey(clientId)));
    if (cutoff === null) throw new Error(`no cutoff for ${clientId}`);
    await sleep(Math.max(0, (Math.floor(cutoff / 1000) + 1) * 1000 - Date.now() + 1));
  }

  /**
   * Grants as the endpoints issue them once they have found the client active: a remembered
   * consent, a code, and a family with its access and refresh token.
   */
  async function issueGrantsDirectly(app: AuthApp, clientId: string) {
    const userId = ids.users.alice;
    const scopes = ['openid', 'profile'];
    await servicesOf(app).consents.remember(userId, clientId, scopes);
    const { verifier, challenge } = pkcePair();
    const code = await issueCode(app, { clientId, userId, scopes, codeChallenge: challenge });
    const family = servicesOf(app).families.begin({
      id: newTokenId(),
      userId,
      clientId,
      scopes,
      authTime: Math.floor(Date.now() / 1000),
      databaseCreatedAt: Date.now(),
    });
    const tokens = await issueTokens(servicesOf(app), {
      family,
      begins: true,
      scopes,
      accessToken: planAccessToken(servicesOf(app)),
      nonce: null,
      withRefreshToken: true,
      user: (await loadTokenSubject(app.orm.em.fork(), userId, scopes))!.claims,
    });
    return { code, verifier, tokens };
  }

  async function expectLateGrantsVoid(
    app: AuthApp,
    clientId: string,
    grants: Awaited<ReturnType<typeof issueGrantsDirectly>>,
  ) {
    expect(await servicesOf(app).consents.find(ids.users.alice, clientId)).toBeNull();
    const redemption = await tokenRequest(app, {
      grant_type: 'authorization_code',
      code: grants.code,
      redirect_uri: DEMO_REDIRECT_URI,
      code_verifier: grants.verifier,
      client_id: clientId,
    });
    expect(redemption.statusCode).toBe(400);
    expect(redemption.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await userinfoRequest(app, grants.tokens.access_token)).statusCode).toBe(401);
    const refresh = await refreshRequest(app, clientId, grants.tokens.refresh_token!);
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
  }

  async function admin303(app: AuthApp, path: string) {
    const response = await postForm(app, path, csrfOf(admin), { as: admin });
    expect(response.statusCode).toBe(303);
  }

  async function expectGrantsGone(
    app: AuthApp,
    clientId: string,
    tokens: Awaited<ReturnType<typeof tokensFor>>,
  ) {
    // The remembered consent no longer skips the screen ...
    const screen = await authorize(app, clientId);
    expect(String(screen.headers.location)).toMatch(/^\/oauth\/consent\?request=/);
    const silent = callbackParams(await authorize(app, clientId, { prompt: 'none' }));
    expect(silent.get('error')).toBe('consent_required');
    expect(silent.has('code')).toBe(false);
    expect(await servicesOf(app).consents.list(ids.users.alice)).not.toContainEqual(
      expect.objectContaining({ clientId }),
    );
    // ... the access token is refused at userinfo ...
    const userinfo = await userinfoRequest(app, tokens.access_token);
    expect(userinfo.statusCode).toBe(401);
    expect(userinfo.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
    expect(userinfo.json()).toMatchObject({ error: 'invalid_token' });
    // ... and so is the refresh token.
    const refresh = await refreshRequest(app, clientId, tokens.refresh_token!);
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    return screen;
  }

  it('a client deactivated and activated again has none of its earlier grants', async ({ app }) => {
    const { clientId, rowId, tokens } = await clientWithGrants(app);
    await admin303(app, `/admin/oauthclients/${rowId}/deactivate`);
    await admin303(app, `/admin/oauthclients/${rowId}/activate`);
    await expectGrantsGone(app, clientId, tokens);
  });

  it('a client_id deleted and registered again inherits no consent and no token', async ({
    app,
    registerClient,
  }) => {
    const { clientId, rowId, tokens } = await clientWithGrants(app);
    await admin303(app, `/admin/oauthclients/${rowId}/delete`);
    expect(await findClientRow(app, clientId)).toBeNull();
    await registerClient({ clientId, name: 'Someone else' });
    const screen = await expectGrantsGone(app, clientId, tokens);

    // The new client's own grants work: a consent given now is remembered, its tokens accepted.
    await pastTheCutoff(app, clientId);
    const allowed = await allowOnConsentPage(app, alice.cookies, screen, { remember: true });
    expect(callbackParams(allowed).has('code')).toBe(true);
    expect(callbackParams(await authorize(app, clientId, { prompt: 'none' })).has('code')).toBe(
      true,
    );
    const fresh = await tokensFor(app, { clientId, userId: ids.users.alice });
    expect((await userinfoRequest(app, fresh.access_token)).statusCode).toBe(200);
    expect((await refreshRequest(app, clientId, fresh.refresh_token!)).statusCode).toBe(200);
  });

  it('voids grants issued while the deactivation commits, whichever moment they are dated', async ({
    app,
    services,
  }) => {
    const { clientId, rowId } = await clientWithGrants(app);
    // Endpoints read the client row without a lock: one that found the client active just
    // before the deactivation committed issues its grants a moment later. Here, once right after
    // the commit, before the cutoff is written again, and once after the admin's request ended.
    const late: Awaited<ReturnType<typeof issueGrantsDirectly>>[] = [];
    const grantRevocation = services.grantRevocation;
    const endClientGrants = grantRevocation.endClientGrants.bind(grantRevocation);
    grantRevocation.endClientGrants = async (endedId, databaseNow) => {
      if ((await findClientRow(app, endedId))?.active === false) {
        late.push(await issueGrantsDirectly(app, clientId));
      }
      return endClientGrants(endedId, databaseNow);
    };
    try {
      await admin303(app, `/admin/oauthclients/${rowId}/deactivate`);
    } finally {
      grantRevocation.endClientGrants = endClientGrants;
    }
    late.push(await issueGrantsDirectly(app, clientId));
    // Reactivated at once: the client is known again, its grants of before are not.
    await admin303(app, `/admin/oauthclients/${rowId}/activate`);
    for (const grants of late) await expectLateGrantsVoid(app, clientId, grants);
    expect(late).toHaveLength(2);
  });

  it('leaves other clients’ grants alone', async ({ app }) => {
    const ended = await clientWithGrants(app);
    const other = await clientWithGrants(app);
    await admin303(app, `/admin/oauthclients/${ended.rowId}/delete`);
    expect(
      callbackParams(await authorize(app, other.clientId, { prompt: 'none' })).has('code'),
    ).toBe(true);
    expect((await userinfoRequest(app, other.tokens.access_token)).statusCode).toBe(200);
    expect(
      (await refreshRequest(app, other.clientId, other.tokens.refresh_token!)).statusCode,
    ).toBe(200);
  });

  it('keeps the grants when only the secret is regenerated', async ({
    app,
    registerClient,
    services,
  }) => {
    sequence += 1;
    const clientId = `ending-grants-${sequence}`;
    await registerClient({ clientId }, 'a-secret-of-the-test-client');
    const row = await findClientRow(app, clientId);
    await services.consents.remember(ids.users.alice, clientId, ['openid', 'profile']);
    await admin303(app, `/admin/oauthclients/${row!.id}/secret`);
    expect(callbackParams(await authorize(app, clientId, { prompt: 'none' })).has('code')).toBe(
      true,
    );
  });
});

import { signInAs, type SignedInClient } from '@foodshare/server-kit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuthApp } from '../app.ts';
import {
  allowOnConsentPage,
  authorizeUrl,
  callbackParams,
} from '../test-support/authorization-helpers.ts';
import { buildTestApp } from '../test-support/build-test-app.ts';
import { csrfOf, findClientRow, postForm } from '../test-support/oauth-admin-helpers.ts';
import {
  refreshRequest,
  registerTestClient,
  tokensFor,
  userinfoRequest,
} from '../endpoints/token/token-test-support.ts';

const ids = inject('demoIds');

/** An access token's `iat` has whole seconds: a fresh one must not share the cutoff's second. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1001 - (Date.now() % 1000)));

/**
 * A client deactivated or deleted loses every grant it held (ClientGrantCutoffs): a client
 * reactivated, or a client_id registered again (perhaps by someone else), starts without the
 * users' remembered consents and without a single working token of before.
 */
describe('the grants of a deactivated or deleted OAuth client', () => {
  let app: AuthApp;
  let admin: SignedInClient;
  let alice: SignedInClient;
  let sequence = 0;

  beforeAll(async () => {
    ({ app } = await buildTestApp());
    await app.ready();
    admin = await signInAs(app, ids.users.orga);
    alice = await signInAs(app, ids.users.alice);
  });
  afterAll(() => app.close());

  const authorize = (clientId: string, extra: Record<string, string> = {}) =>
    app.inject({
      method: 'GET',
      url: authorizeUrl({ client_id: clientId, ...extra }),
      cookies: alice.cookies,
    });

  /** A client with a user's remembered consent, an access token and a refresh token. */
  async function clientWithGrants() {
    sequence += 1;
    const clientId = `ending-grants-${sequence}`;
    await registerTestClient(app, { clientId });
    const row = await findClientRow(app, clientId);
    if (!row) throw new Error('the client was not created');
    await app.consents.remember(ids.users.alice, clientId, ['openid', 'profile']);
    const tokens = await tokensFor(app, { clientId, userId: ids.users.alice });
    // Everything works before: the consent skips the screen, even with prompt=none.
    expect(callbackParams(await authorize(clientId, { prompt: 'none' })).has('code')).toBe(true);
    expect((await userinfoRequest(app, tokens.access_token)).statusCode).toBe(200);
    return { clientId, rowId: row.id, tokens };
  }

  async function admin303(path: string) {
    const response = await postForm(app, path, csrfOf(admin), { as: admin });
    expect(response.statusCode).toBe(303);
  }

  async function expectGrantsGone(clientId: string, tokens: Awaited<ReturnType<typeof tokensFor>>) {
    // The remembered consent no longer skips the screen ...
    const screen = await authorize(clientId);
    expect(String(screen.headers.location)).toMatch(/^\/oauth\/consent\?request=/);
    const silent = callbackParams(await authorize(clientId, { prompt: 'none' }));
    expect(silent.get('error')).toBe('consent_required');
    expect(silent.has('code')).toBe(false);
    expect(await app.consents.list(ids.users.alice)).not.toContainEqual(
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

  it('a client deactivated and activated again has none of its earlier grants', async () => {
    const { clientId, rowId, tokens } = await clientWithGrants();
    await admin303(`/admin/oauthclients/${rowId}/deactivate`);
    await admin303(`/admin/oauthclients/${rowId}/activate`);
    await expectGrantsGone(clientId, tokens);
  });

  it('a client_id deleted and registered again inherits no consent and no token', async () => {
    const { clientId, rowId, tokens } = await clientWithGrants();
    await admin303(`/admin/oauthclients/${rowId}/delete`);
    expect(await findClientRow(app, clientId)).toBeNull();
    await registerTestClient(app, { clientId, name: 'Someone else' });
    const screen = await expectGrantsGone(clientId, tokens);

    // The new client's own grants work: a consent given now is remembered, its tokens accepted.
    await nextSecond();
    const allowed = await allowOnConsentPage(app, alice.cookies, screen, { remember: true });
    expect(callbackParams(allowed).has('code')).toBe(true);
    expect(callbackParams(await authorize(clientId, { prompt: 'none' })).has('code')).toBe(true);
    const fresh = await tokensFor(app, { clientId, userId: ids.users.alice });
    expect((await userinfoRequest(app, fresh.access_token)).statusCode).toBe(200);
    expect((await refreshRequest(app, clientId, fresh.refresh_token!)).statusCode).toBe(200);
  });

  it('leaves other clients’ grants alone', async () => {
    const ended = await clientWithGrants();
    const other = await clientWithGrants();
    await admin303(`/admin/oauthclients/${ended.rowId}/delete`);
    expect(callbackParams(await authorize(other.clientId, { prompt: 'none' })).has('code')).toBe(
      true,
    );
    expect((await userinfoRequest(app, other.tokens.access_token)).statusCode).toBe(200);
    expect(
      (await refreshRequest(app, other.clientId, other.tokens.refresh_token!)).statusCode,
    ).toBe(200);
  });

  it('keeps the grants when only the secret is regenerated', async () => {
    sequence += 1;
    const clientId = `ending-grants-${sequence}`;
    await registerTestClient(app, { clientId }, 'a-secret-of-the-test-client');
    const row = await findClientRow(app, clientId);
    await app.consents.remember(ids.users.alice, clientId, ['openid', 'profile']);
    await admin303(`/admin/oauthclients/${row!.id}/secret`);
    expect(callbackParams(await authorize(clientId, { prompt: 'none' })).has('code')).toBe(true);
  });
});

import { servicesOf } from '../../test-support/build-test-app.ts';
import {
  createOAuthClient,
  DEMO_REDIRECT_URI,
  DemoClientId,
  OAuthClientEntity,
  UserEntity,
} from '@foodshare/domain';
import { type SignedInClient } from '@foodshare/server-kit/test-support';
import type { AuthApp } from '../../app.ts';
import {
  authorizeUrl,
  callbackParams,
  formBody,
  hiddenField,
  pendingRequestId,
} from '../../test-support/authorization-helpers.ts';
import { giveLegacyClientName } from '../../test-support/legacy-client-name.ts';
import { describe, expect, ids, it, test } from '../../test-support/fixtures.ts';

const SCRIPT_NAME = '<script>alert(1)</script>';

describe('the consent screen, GET and POST /oauth/consent', () => {
  let alice: SignedInClient;

  test.beforeAll(async ({ app, services }) => {
    await createOAuthClient(
      app.orm.em.fork(),
      {
        clientId: 'hostile',
        name: 'Hostile',
        confidential: false,
        redirectUris: [DEMO_REDIRECT_URI],
        scopes: ['openid', 'email'],
        grantTypes: ['authorization_code'],
      },
      { pepper: services.secrets.clientSecretPepper },
    );
    await giveLegacyClientName(app.orm.em.fork(), 'hostile', SCRIPT_NAME);
  });

  test.beforeEach(async ({ signIn, services }) => {
    alice = await signIn(ids.users.alice);
    for (const client of [...Object.values(DemoClientId), 'hostile']) {
      await services.consents.revoke(ids.users.alice, client);
    }
  });

  async function auditCount(app: AuthApp, event: string): Promise<number> {
    const metric = await servicesOf(app).metrics.auditEventsTotal.get();
    return metric.values.find((value) => value.labels.event === event)?.value ?? 0;
  }

  /** The consent page of a fresh request by alice. */
  async function consentPage(
    app: AuthApp,
    overrides: Record<string, string | null> = {},
    headers: Record<string, string> = {},
  ) {
    const start = await app.inject({
      method: 'GET',
      url: authorizeUrl(overrides),
      cookies: alice.cookies,
    });
    expect(String(start.headers.location)).toMatch(/^\/oauth\/consent\?request=/);
    const page = await app.inject({
      method: 'GET',
      url: String(start.headers.location),
      cookies: alice.cookies,
      headers,
    });
    expect(page.statusCode).toBe(200);
    return { page, requestId: pendingRequestId(start) };
  }

  function decide(
    app: AuthApp,
    requestId: string,
    fields: Record<string, string>,
    signedIn = alice,
  ) {
    return app.inject({
      method: 'POST',
      url: '/oauth/consent',
      cookies: signedIn.cookies,
      ...formBody({ request: requestId, ...fields }),
    });
  }

  it('names the client, lists the scopes in plain words, offers remember, allow and deny', async ({
    app,
  }) => {
    const { page, requestId } = await consentPage(app, { scope: 'openid email regions' });
    expect(page.body).toContain('Demo-App (öffentlich)');
    expect(page.body).toContain('Your email address');
    expect(page.body).toContain('The regions you are a member of');
    expect(page.body).not.toContain('Your name, profile picture');
    expect(page.body).toContain('name="remember"');
    expect(page.body).toContain('value="allow"');
    expect(page.body).toContain('value="deny"');
    expect(hiddenField(page.body, 'request')).toBe(requestId);
    expect(hiddenField(page.body, 'csrf')).toBe(alice.headers['x-csrf-token']);
  });

  it('escapes the client name: a client named <script>alert(1)</script> stays text', async ({
    app,
  }) => {
    const { page } = await consentPage(app, { client_id: 'hostile', scope: 'openid email' });
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain(SCRIPT_NAME);
  });

  it('says who is signed in, offers "not you?", and names where the answer goes', async ({
    app,
  }) => {
    const { page, requestId } = await consentPage(app, { scope: 'openid email' });
    const user = await app.orm.em
      .fork()
      .findOneOrFail(UserEntity, { id: ids.users.alice }, { fields: ['firstName', 'email'] });
    expect(page.body).toContain(`Signed in as <strong>${user.firstName}`);
    expect(page.body).toContain(`(${user.email})`);
    // "Not you?" posts to /logout with the session's token and the request to come back to.
    const notYou = /<form method="post" action="\/logout">([\s\S]*?)<\/form>/.exec(page.body)?.[1];
    expect(notYou).toContain('Not you? Sign in as someone else');
    expect(hiddenField(notYou ?? '', 'request')).toBe(requestId);
    expect(hiddenField(notYou ?? '', 'csrf')).toBe(alice.headers['x-csrf-token']);
    expect(page.body).toContain(
      `you continue to <span class="destination">${new URL(DEMO_REDIRECT_URI).host}</span>`,
    );
    // What "remember" means, and where to undo it.
    expect(page.body).toContain('<a href="/connected-apps">Connected apps</a>');
    // No logo registered: the page loads no image from elsewhere.
    expect(page.headers['content-security-policy']).toContain("img-src 'self' data:;");
    expect(page.body).not.toContain('<img');
    expect(page.body).toContain('has not registered a privacy policy');
  });

  it("shows the client's logo and links as registered, and allows https images only then", async ({
    app,
    services,
  }) => {
    await createOAuthClient(
      app.orm.em.fork(),
      {
        clientId: 'described',
        name: 'Tafel Süd',
        confidential: false,
        redirectUris: [DEMO_REDIRECT_URI],
        scopes: ['openid'],
        grantTypes: ['authorization_code'],
        logoUri: 'https://tafel.example.org/logo.png?a=1&b=2',
        clientUri: 'https://tafel.example.org/',
        policyUri: 'https://tafel.example.org/datenschutz',
        tosUri: 'https://tafel.example.org/agb',
      },
      { pepper: services.secrets.clientSecretPepper },
    );
    try {
      const { page } = await consentPage(
        app,
        { client_id: 'described', scope: 'openid' },
        { 'accept-language': 'de' },
      );
      expect(page.body).toMatch(
        /<img\s+class="client-logo"\s+src="https:\/\/tafel.example.org\/logo.png\?a=1&amp;b=2"\s+alt="Logo von Tafel Süd"/,
      );
      expect(page.body).toContain('href="https://tafel.example.org/datenschutz"');
      expect(page.body).toContain('>Datenschutzerklärung</a>');
      expect(page.body).toContain('href="https://tafel.example.org/agb"');
      expect(page.body).toContain('>Website der Anwendung</a>');
      expect(page.body).not.toContain('keine Datenschutzerklärung');
      const policy = String(page.headers['content-security-policy']);
      expect(policy).toContain("img-src 'self' data: https:");
      expect(policy).toContain("style-src 'self'");
      expect(policy).not.toContain('unsafe-inline');
    } finally {
      await app.orm.em.fork().nativeDelete(OAuthClientEntity, { clientId: 'described' });
    }
  });

  it('forbids framing (CSP frame-ancestors none, X-Frame-Options DENY) and caching', async ({
    app,
  }) => {
    const { page } = await consentPage(app);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('speaks German with Accept-Language de', async ({ app }) => {
    const { page } = await consentPage(app, { scope: 'openid email' }, { 'accept-language': 'de' });
    expect(page.body).toContain('Deine E-Mail-Adresse');
    expect(page.body).toContain('Diese Entscheidung merken');
    expect(page.body).toContain('Erlauben');
  });

  it('names offline_access in plain words, in both languages (docs/oauth.md §3.8)', async ({
    app,
  }) => {
    const scope = 'openid offline_access';
    const en = await consentPage(app, { scope }, { 'accept-language': 'en' });
    expect(en.page.body).toContain(
      'Access to this information even after you sign out, until you revoke it under “Connected apps”',
    );
    const de = await consentPage(app, { scope }, { 'accept-language': 'de' });
    expect(de.page.body).toContain(
      'Zugriff auf diese Angaben auch nach deiner Abmeldung, bis du ihn unter „Verbundene Anwendungen“ widerrufst',
    );
    expect(de.page.body).not.toContain('offline_access');
  });

  it('says in plain words, in both languages, what the scope api lets an app do (docs/oauth.md §11)', async ({
    app,
    registerClient,
  }) => {
    await registerClient({ clientId: 'calls-the-api', scopes: ['openid', 'api'] });
    const request = { client_id: 'calls-the-api', scope: 'openid api' };
    const en = await consentPage(app, request, { 'accept-language': 'en' });
    expect(en.page.body).toContain(
      'Read and act on the platform in your name, with your permissions: messages, regions, stores and more',
    );
    const de = await consentPage(app, request, { 'accept-language': 'de' });
    expect(de.page.body).toContain(
      'In deinem Namen auf der Plattform lesen und handeln, mit deinen Rechten: Nachrichten, Bezirke, Betriebe und mehr',
    );
  });

  it('allow answers 303 with code, state and iss', async ({ app, services }) => {
    const { requestId } = await consentPage(app);
    const before = await auditCount(app, 'consent_granted');
    const response = await decide(app, requestId, {
      decision: 'allow',
      csrf: alice.headers['x-csrf-token'],
    });
    expect(response.statusCode).toBe(303);
    const params = callbackParams(response);
    expect([...params.keys()].sort()).toEqual(['code', 'iss', 'state']);
    expect(params.get('iss')).toBe(services.issuer);
    expect(await auditCount(app, 'consent_granted')).toBe(before + 1);
  });

  it('deny answers 303 with access_denied, state and iss, and issues no code', async ({
    app,
    services,
  }) => {
    const { requestId } = await consentPage(app);
    const before = await auditCount(app, 'consent_denied');
    const response = await decide(app, requestId, {
      decision: 'deny',
      csrf: alice.headers['x-csrf-token'],
    });
    expect(response.statusCode).toBe(303);
    const params = callbackParams(response);
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('state')).toBe('state-123');
    expect(params.get('iss')).toBe(services.issuer);
    expect(params.has('code')).toBe(false);
    expect(await auditCount(app, 'consent_denied')).toBe(before + 1);
  });

  it('remembers the consent only when "remember this choice" is ticked', async ({
    app,
    services,
  }) => {
    const first = await consentPage(app);
    await decide(app, first.requestId, { decision: 'allow', csrf: alice.headers['x-csrf-token'] });
    expect(await services.consents.find(ids.users.alice, DemoClientId.public)).toBeNull();
    const second = await consentPage(app);
    await decide(app, second.requestId, {
      decision: 'allow',
      remember: 'on',
      csrf: alice.headers['x-csrf-token'],
    });
    expect(await services.consents.find(ids.users.alice, DemoClientId.public)).toMatchObject({
      scopes: ['openid', 'profile'],
    });
  });

  it('refuses a consent form without its CSRF field, deciding nothing', async ({ app }) => {
    const { requestId } = await consentPage(app);
    const refused = await decide(app, requestId, { decision: 'allow' });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers.location).toBeUndefined();
    const wrong = await decide(app, requestId, { decision: 'allow', csrf: '0'.repeat(32) });
    expect(wrong.statusCode).toBe(403);
    // The request is still open for the real form.
    const allowed = await decide(app, requestId, {
      decision: 'allow',
      csrf: alice.headers['x-csrf-token'],
    });
    expect(callbackParams(allowed).has('code')).toBe(true);
  });

  it('decides once: a second submit of the form gets the expired page, not a second code', async ({
    app,
  }) => {
    const { requestId } = await consentPage(app);
    const form = { decision: 'allow', csrf: alice.headers['x-csrf-token'] };
    const [one, two] = await Promise.all([
      decide(app, requestId, form),
      decide(app, requestId, form),
    ]);
    expect([one?.statusCode, two?.statusCode].sort()).toEqual([303, 400]);
  });

  it('sends a visitor without a session to the login page first', async ({ app }) => {
    const { requestId } = await consentPage(app);
    const page = await app.inject({ method: 'GET', url: `/oauth/consent?request=${requestId}` });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(`/login?request=${requestId}`);
    const post = await app.inject({
      method: 'POST',
      url: '/oauth/consent',
      ...formBody({ request: requestId, decision: 'allow', csrf: 'x' }),
    });
    expect(post.statusCode).toBe(303);
    expect(post.headers.location).toBe(`/login?request=${requestId}`);
  });

  it('shows the expired page for an unknown request', async ({ app }) => {
    const response = await app.inject({
      method: 'GET',
      url: `/oauth/consent?request=${'y'.repeat(32)}`,
      cookies: alice.cookies,
    });
    expect(response.statusCode).toBe(400);
  });

  it('checks the region gate again for whoever decides: bob cannot finish alice’s regional request', async ({
    app,
    signIn,
  }) => {
    const { requestId } = await consentPage(app, { client_id: DemoClientId.regional });
    const bob = await signIn(ids.users.bob);
    const response = await decide(
      app,
      requestId,
      { decision: 'allow', csrf: bob.headers['x-csrf-token'] },
      bob,
    );
    // The refusal page, not a code: its link takes access_denied back to the client.
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('User not in required regions');
    const href = /id="back-to-client" href="([^"]*)"/.exec(response.body)?.[1] ?? '';
    const back = new URL(href.replaceAll('&amp;', '&'));
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBe('User not in required regions');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('gives nothing to a client deactivated while the user decides', async ({ app }) => {
    const { requestId } = await consentPage(app, { client_id: 'hostile', scope: 'openid' });
    await app.orm.em
      .fork()
      .execute(`update oauth_clients set active = false where client_id = ?`, ['hostile']);
    try {
      const response = await decide(app, requestId, {
        decision: 'allow',
        csrf: alice.headers['x-csrf-token'],
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toContain('Invalid redirect_uri');
    } finally {
      await app.orm.em
        .fork()
        .execute(`update oauth_clients set active = true where client_id = ?`, ['hostile']);
    }
  });
});

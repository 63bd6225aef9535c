import { servicesOf } from '../test-support/build-test-app.ts';
import { clientSecretMatches, DemoRegionId, verifyClientSecret } from '@foodshare/domain';
import { type SignedInClient } from '@foodshare/server-kit/test-support';
import type { AuthApp } from '../app.ts';
import { escapeHtml } from '../pages/html.ts';
import { findActiveClient } from '../clients/registered-clients.ts';
import { basicAuth, issueCode, tokenRequest } from '../test-support/token-helpers.ts';
import { giveLegacyClientName } from '../test-support/legacy-client-name.ts';
import {
  auditActions,
  csrfOf,
  findClientRow,
  getPage,
  postForm,
  type FormFields,
} from '../test-support/oauth-admin-helpers.ts';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';

/** RFC 8628's grant type, offered on the form beside the others. */
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('the OAuth client pages of an administrator', () => {
  let admin: SignedInClient;
  let sequence = 0;

  test.beforeAll(async ({ signIn }) => {
    admin = await signIn(ids.users.orga);
  });

  const pepper = (app: AuthApp) => servicesOf(app).secrets.clientSecretPepper;

  function nextClientId(): string {
    sequence += 1;
    return `admin-page-${sequence}`;
  }

  function clientFields(app: AuthApp, overrides: FormFields = {}): FormFields {
    return {
      clientId: nextClientId(),
      name: 'Page App',
      redirectUris: 'https://app.example.org/callback',
      scopes: ['openid', 'profile'],
      grantTypes: ['authorization_code'],
      ...overrides,
    };
  }

  async function submitNew(app: AuthApp, fields: FormFields, as: SignedInClient = admin) {
    return postForm(app, '/admin/oauthclients/new', { ...fields, ...csrfOf(as) }, { as });
  }

  async function auditCount(app: AuthApp, event: string): Promise<number> {
    const metric = await servicesOf(app).metrics.auditEventsTotal.get();
    return metric.values.find((value) => value.labels.event === event)?.value ?? 0;
  }

  /** Creates a client through the form and returns its row and the secret page's secret. */
  async function createThroughForm(app: AuthApp, overrides: FormFields = {}) {
    const fields = clientFields(app, overrides);
    const response = await submitNew(app, fields);
    expect(response.statusCode, response.body).toBe(303);
    const row = await findClientRow(app, String(fields.clientId));
    if (!row) throw new Error('the client was not stored');
    return { row, response, clientId: String(fields.clientId) };
  }

  function shownSecret(body: string): string | null {
    return /<code id="client-secret">([0-9a-f]{64})<\/code>/.exec(body)?.[1] ?? null;
  }

  describe('the list', () => {
    it('shows every client with its settings, required regions by name and last change', async ({
      app,
    }) => {
      const response = await getPage(app, '/admin/oauthclients', { as: admin });
      expect(response.statusCode).toBe(200);
      const body = response.body;
      for (const clientId of ['demo-public', 'demo-confidential', 'demo-regional']) {
        expect(body).toContain(`<code>${clientId}</code>`);
      }
      expect(body).toContain('Demo-App Musterstadt');
      expect(body).toContain('<td>Musterstadt</td>');
      expect(body).toContain('openid profile email regions');
      expect(body).toContain('authorization_code refresh_token');
      expect(body).toContain('by command line');
      expect(body).not.toMatch(/[0-9a-f]{64}/);
    });

    it('is German for Accept-Language de', async ({ app }) => {
      const response = await getPage(app, '/admin/oauthclients', {
        as: admin,
        headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-language']).toBe('de');
      expect(response.body).toContain('<html lang="de">');
      expect(response.body).toContain('Neuer Client');
      expect(response.body).toContain('Erforderliche Bezirke');
      expect(response.body).toContain('alle Nutzer*innen');
    });
  });

  describe('creating a client', () => {
    it('offers a form with openid and authorization_code ticked and the region tree indented', async ({
      app,
    }) => {
      const response = await getPage(app, '/admin/oauthclients/new', { as: admin });
      expect(response.statusCode).toBe(200);
      const body = response.body;
      expect(body).toMatch(/<input type="hidden" name="csrf" value="[0-9a-f]{32}"/);
      expect(body).toMatch(/name="scopes" value="openid"\s+checked/);
      expect(body).toMatch(/name="scopes" value="profile"\s+\/>/);
      expect(body).toMatch(/name="grantTypes" value="authorization_code"\s+checked/);
      expect(body).toMatch(
        /name="grantTypes"\s+value="urn:ietf:params:oauth:grant-type:device_code"\s+\/>/,
      );
      // Depth first, children indented below their parent.
      const order = ['Deutschland', 'Musterland', 'Beispieldorf', 'Musterstadt'].map((name) =>
        body.indexOf(`${name}</label`),
      );
      expect(order.every((position) => position > 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(body).toMatch(
        /class="depth-2"\s*><input\s+type="checkbox"\s+name="requiredRegionIds"\s+value="3"/,
      );
    });

    it('creates a public client: 303 to its page, stored without secret, audited', async ({
      app,
    }) => {
      const createdBefore = await auditCount(app, 'client_created');
      const { row, response, clientId } = await createThroughForm(app, {
        requiredRegionIds: [String(DemoRegionId.Musterstadt), String(DemoRegionId.Beispieldorf)],
        grantTypes: ['authorization_code', 'refresh_token', DEVICE_GRANT],
      });
      expect(response.headers.location).toBe(`/admin/oauthclients/${row.id}?done=created`);
      expect(row).toMatchObject({
        name: 'Page App',
        confidential: false,
        active: true,
        redirectUris: ['https://app.example.org/callback'],
        scopes: ['openid', 'profile'],
        grantTypes: ['authorization_code', 'refresh_token', DEVICE_GRANT],
        requiredRegionIds: [DemoRegionId.Musterstadt, DemoRegionId.Beispieldorf],
        secretHash: null,
      });
      expect(row.updatedBy?.id).toBe(ids.users.orga);
      expect(await auditActions(app, clientId)).toMatchObject([
        { action: 'create', actorId: ids.users.orga },
      ]);
      expect(await auditCount(app, 'client_created')).toBe(createdBefore + 1);

      const page = await getPage(app, String(response.headers.location), { as: admin });
      expect(page.body).toContain('The client was created.');
      expect(page.body).toContain('Public clients have no secret');
    });

    it('creates a confidential client and shows its secret once, stored only as a hash', async ({
      app,
    }) => {
      const { row, response } = await createThroughForm(app, { confidential: 'on' });
      expect(response.headers.location).toBe(`/admin/oauthclients/${row.id}/secret`);
      expect(row.confidential).toBe(true);

      const result = await getPage(app, `/admin/oauthclients/${row.id}/secret`, { as: admin });
      expect(result.statusCode).toBe(200);
      expect(result.headers['cache-control']).toBe('no-store');
      const secret = shownSecret(result.body);
      expect(secret).not.toBeNull();
      expect(row.secretHash).not.toBe(secret);
      expect(verifyClientSecret(secret ?? '', row.secretHash ?? '', pepper(app))).toBe(true);

      const again = await getPage(app, `/admin/oauthclients/${row.id}/secret`, { as: admin });
      expect(again.statusCode).toBe(200);
      expect(again.body).toContain('cannot be shown again');
      for (const path of ['/admin/oauthclients', `/admin/oauthclients/${row.id}`]) {
        const page = await getPage(app, path, { as: admin });
        expect(page.body).not.toContain(secret);
        expect(page.body).not.toContain(row.secretHash);
      }
      const audit = JSON.stringify(await auditActions(app, row.clientId));
      expect(audit).not.toContain(secret);
      expect(audit).not.toContain(row.secretHash);
    });

    it('shows the secret only in the session that created the client', async ({ app, signIn }) => {
      const { row } = await createThroughForm(app, { confidential: 'on' });
      const otherSession = await signIn(ids.users.orga);
      const elsewhere = await getPage(app, `/admin/oauthclients/${row.id}/secret`, {
        as: otherSession,
      });
      expect(shownSecret(elsewhere.body)).toBeNull();
      const here = await getPage(app, `/admin/oauthclients/${row.id}/secret`, { as: admin });
      expect(shownSecret(here.body)).not.toBeNull();
    });

    it('refuses a taken client id kindly, with the form filled in again (400)', async ({ app }) => {
      const response = await submitNew(
        app,
        clientFields(app, { clientId: 'demo-public', name: 'Another' }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('This client ID is already taken.');
      expect(response.body).toContain('value="demo-public"');
      expect(response.body).toContain('value="Another"');
      expect((await findClientRow(app, 'demo-public'))?.name).toBe('Demo-App (öffentlich)');
    });

    it.for([
      ['https://app.example.org/cb', 303],
      ['http://localhost:3000/callback', 303],
      ['http://127.0.0.1:8000/cb', 303],
      ['http://[::1]:8000/cb', 303],
      ['http://example.org/callback', 400],
      ['https://app.example.org/cb#fragment', 400],
      ['https://*.example.org/cb', 400],
      ['/callback', 400],
      ['app.example.org/callback', 400],
    ] as const)('redirect URI %s -> %i', async ([uri, status], { app }) => {
      const fields = clientFields(app, { redirectUris: `https://ok.example.org/cb\r\n${uri}\r\n` });
      const response = await submitNew(app, fields);
      expect(response.statusCode).toBe(status);
      const row = await findClientRow(app, String(fields.clientId));
      if (status === 303) {
        expect(row?.redirectUris).toEqual(['https://ok.example.org/cb', uri]);
      } else {
        expect(row).toBeNull();
        expect(response.body).toContain(`${uri.replace('#', '#')}:`);
        // The textarea keeps what was entered.
        expect(response.body).toContain(`https://ok.example.org/cb\r\n${uri}`);
      }
    });

    it('registers a native app: its own reverse-domain scheme and loopback, for a public client', async ({
      app,
    }) => {
      const uris = ['org.example.app:/oauth2redirect', 'http://127.0.0.1/callback'];
      const { row } = await createThroughForm(app, {
        redirectUris: uris.join('\r\n'),
        postLogoutRedirectUris: 'org.example.app:/logged-out',
      });
      expect(row).toMatchObject({
        confidential: false,
        redirectUris: uris,
        postLogoutRedirectUris: ['org.example.app:/logged-out'],
      });
    });

    it.for([
      [
        'an app scheme for a confidential client',
        { confidential: 'on', redirectUris: 'org.example.app:/oauth2redirect' },
        "org.example.app:/oauth2redirect: uses an app's own scheme, which only a public client",
        'org.example.app:/oauth2redirect: verwendet ein eigenes Schema einer App; das darf nur ein öffentlicher Client',
      ],
      [
        'an app scheme that is no reverse domain',
        { redirectUris: 'myapp:/cb' },
        "myapp:/cb: must use https, http on localhost, 127.0.0.1 or [::1], or an app's own scheme that is a domain in reverse",
        'myapp:/cb: muss https verwenden, http auf localhost, 127.0.0.1 oder [::1], oder ein eigenes Schema der App, das eine umgekehrte Domain ist',
      ],
      [
        'a scheme the browser runs itself',
        { redirectUris: 'javascript:alert(1)' },
        'javascript:alert(1): uses a scheme the browser runs or reads itself',
        'javascript:alert(1): verwendet ein Schema, das der Browser selbst ausführt oder liest',
      ],
      [
        'an app scheme after logout for a confidential client',
        { confidential: 'on', postLogoutRedirectUris: 'org.example.app:/bye' },
        "org.example.app:/bye: uses an app's own scheme, which only a public client",
        'org.example.app:/bye: verwendet ein eigenes Schema einer App',
      ],
    ] as const)(
      'refuses %s (400) in both languages, storing nothing',
      async ([_case, overrides, en, de], { app }) => {
        for (const [language, message] of [
          ['en', en],
          ['de', de],
        ] as const) {
          const fields = clientFields(app, overrides);
          const response = await postForm(
            app,
            '/admin/oauthclients/new',
            { ...fields, ...csrfOf(admin) },
            { as: admin, headers: { 'accept-language': language } },
          );
          expect(response.statusCode).toBe(400);
          expect(response.body).toContain(escapeHtml(message));
          expect(await findClientRow(app, String(fields.clientId))).toBeNull();
        }
      },
    );

    it.for([
      ['without openid', { scopes: ['profile'] }, 'The scope openid is always required.'],
      ['without any scope', { scopes: [] }, 'The scope openid is always required.'],
      ['with an unknown scope', { scopes: ['openid', 'admin'] }, 'Unknown scope: admin'],
      [
        'without authorization_code',
        { grantTypes: ['refresh_token'] },
        'The grant type authorization_code is always required.',
      ],
      ['with an empty client id', { clientId: '' }, 'Please enter a client ID.'],
      ['with a client id of 101 characters', { clientId: 'a'.repeat(101) }, 'up to 100'],
      ['with a space in the client id', { clientId: 'a b' }, 'up to 100'],
      ['without a name', { name: '  ' }, 'Please enter a name.'],
      ['without redirect URIs', { redirectUris: '\n \n' }, 'at least one redirect URI'],
      ['with an unknown region', { requiredRegionIds: ['999999'] }, 'does not exist'],
      ['with a malformed region id', { requiredRegionIds: ['abc'] }, 'does not exist'],
    ] as const)(
      'refuses a client %s (400) and stores nothing',
      async ([_case, overrides, message], { app }) => {
        const fields = clientFields(app, overrides);
        const response = await submitNew(app, fields);
        expect(response.statusCode).toBe(400);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.body).toContain(message);
        expect(response.body).toContain('Please correct the marked entries.');
        if (typeof fields.clientId === 'string' && fields.clientId !== '') {
          expect(await findClientRow(app, fields.clientId)).toBeNull();
        }
      },
    );

    it('accepts a client id of exactly 100 characters', async ({ app }) => {
      const clientId = `x${'1'.repeat(99)}`;
      const response = await submitNew(app, clientFields(app, { clientId }));
      expect(response.statusCode).toBe(303);
      expect(await findClientRow(app, clientId)).not.toBeNull();
    });

    it('escapes what was entered, on the refused form and in the list', async ({ app }) => {
      const name = '<script>alert("x")</script>';
      const refused = await submitNew(app, clientFields(app, { name, clientId: '<b>bad</b>' }));
      expect(refused.statusCode).toBe(400);
      expect(refused.body).not.toContain('<script>alert');
      expect(refused.body).not.toContain('<b>bad</b>');
      expect(refused.body).toContain('value="&lt;b&gt;bad&lt;/b&gt;"');

      // Refused now (a name with markup), but a client registered before may still carry one.
      expect((await submitNew(app, clientFields(app, { name }))).body).toContain(
        'The name must not contain &lt; or &gt;.',
      );
      const { row, clientId } = await createThroughForm(app);
      await giveLegacyClientName(app.orm.em.fork(), clientId, name);
      const list = await getPage(app, '/admin/oauthclients', { as: admin });
      expect(list.body).not.toContain('<script>alert');
      expect(list.body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      const edit = await getPage(app, `/admin/oauthclients/${row.id}`, { as: admin });
      expect(edit.body).not.toContain('<script>alert');
      const confirm = await getPage(app, `/admin/oauthclients/${row.id}/delete`, { as: admin });
      expect(confirm.body).not.toContain('<script>alert');
    });
  });

  describe('changing a client', () => {
    it('saves the changed fields and audits them with old and new values', async ({ app }) => {
      const { row, clientId } = await createThroughForm(app);
      const changedBefore = await auditCount(app, 'client_changed');
      const response = await postForm(
        app,
        `/admin/oauthclients/${row.id}`,
        {
          ...csrfOf(admin),
          // Ignored: the client id is fixed.
          clientId: 'renamed-id',
          name: 'Renamed App',
          redirectUris: 'https://app.example.org/callback\nhttp://localhost:4000/cb',
          scopes: ['openid', 'email'],
          grantTypes: ['authorization_code', 'refresh_token'],
          requiredRegionIds: [String(DemoRegionId.Musterstadt)],
        },
        { as: admin },
      );
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/admin/oauthclients/${row.id}?done=updated`);
      expect(await findClientRow(app, 'renamed-id')).toBeNull();
      expect(await findClientRow(app, clientId)).toMatchObject({
        name: 'Renamed App',
        redirectUris: ['https://app.example.org/callback', 'http://localhost:4000/cb'],
        scopes: ['openid', 'email'],
        grantTypes: ['authorization_code', 'refresh_token'],
        requiredRegionIds: [DemoRegionId.Musterstadt],
      });
      const audit = await auditActions(app, clientId);
      expect(audit.map((entry) => entry.action)).toEqual(['create', 'update']);
      expect(audit[1]).toEqual({
        action: 'update',
        actorId: ids.users.orga,
        changes: {
          name: { from: 'Page App', to: 'Renamed App' },
          redirectUris: {
            from: ['https://app.example.org/callback'],
            to: ['https://app.example.org/callback', 'http://localhost:4000/cb'],
          },
          scopes: { from: ['openid', 'profile'], to: ['openid', 'email'] },
          grantTypes: {
            from: ['authorization_code'],
            to: ['authorization_code', 'refresh_token'],
          },
          requiredRegionIds: { from: [], to: [DemoRegionId.Musterstadt] },
        },
      });
      expect(await auditCount(app, 'client_changed')).toBe(changedBefore + 1);

      const page = await getPage(app, String(response.headers.location), { as: admin });
      expect(page.body).toContain('The changes were saved.');
      expect(page.body).toContain('Changes to this client');
      expect(page.body).toContain('Name: Page App → Renamed App');
      expect(page.body).toContain('Required regions: every user → Musterstadt');
      expect(page.body).toContain('Olga Orgel');

      const list = await getPage(app, '/admin/oauthclients', { as: admin });
      expect(list.body).toMatch(/Renamed App[\s\S]*<td>Musterstadt<\/td>[\s\S]*by Olga Orgel/);
    });

    it('re-renders a wrong edit with its entries and messages (400), changing nothing', async ({
      app,
    }) => {
      const { row, clientId } = await createThroughForm(app);
      const response = await postForm(
        app,
        `/admin/oauthclients/${row.id}`,
        {
          ...csrfOf(admin),
          name: 'Edited <i>',
          redirectUris: 'http://example.org/cb',
          scopes: ['openid'],
          grantTypes: ['authorization_code'],
        },
        { as: admin },
      );
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('value="Edited &lt;i&gt;"');
      expect(response.body).toContain('http://example.org/cb: must use https');
      expect((await findClientRow(app, clientId))?.name).toBe('Page App');
      expect(await auditActions(app, clientId)).toHaveLength(1);
    });

    /** An edit of the form's client that keeps its settings. */
    const pageAppEdit = () => ({
      ...csrfOf(admin),
      name: 'Page App',
      redirectUris: 'https://app.example.org/callback',
      scopes: ['openid', 'profile'],
      grantTypes: ['authorization_code'],
    });

    it('registers post-logout redirect URIs, shows them escaped, and refuses bad ones', async ({
      app,
    }) => {
      const { row, clientId } = await createThroughForm(app, {
        postLogoutRedirectUris: 'https://app.example.org/bye\r\nhttp://127.0.0.1:5000/out',
      });
      expect(row.postLogoutRedirectUris).toEqual([
        'https://app.example.org/bye',
        'http://127.0.0.1:5000/out',
      ]);
      const fields = pageAppEdit();
      const hostile = 'https://app.example.org/bye?x="><script>alert(1)</script>';
      const changed = await postForm(
        app,
        `/admin/oauthclients/${row.id}`,
        { ...fields, postLogoutRedirectUris: hostile },
        { as: admin },
      );
      expect(changed.statusCode).toBe(303);
      expect((await findClientRow(app, clientId))?.postLogoutRedirectUris).toEqual([hostile]);
      const page = await getPage(app, String(changed.headers.location), { as: admin });
      expect(page.body).not.toContain('<script>alert(1)');
      expect(page.body).toContain('bye?x=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page.body).toContain('Post-logout redirect URIs');

      const refused = await postForm(
        app,
        `/admin/oauthclients/${row.id}`,
        { ...fields, postLogoutRedirectUris: 'http://app.example.org/bye' },
        { as: admin },
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('http://app.example.org/bye: must use https');
      expect((await findClientRow(app, clientId))?.postLogoutRedirectUris).toEqual([hostile]);
    });

    it('registers what the consent page shows (logo, home page, policy, terms), https only', async ({
      app,
    }) => {
      const uris = {
        logoUri: 'https://app.example.org/logo.svg',
        clientUri: 'https://app.example.org/',
        policyUri: 'https://app.example.org/privacy?lang=de&v=2',
        tosUri: 'https://app.example.org/terms',
      };
      const { row, clientId } = await createThroughForm(app, uris);
      expect(row).toMatchObject(uris);
      const page = await getPage(app, `/admin/oauthclients/${row.id}`, { as: admin });
      expect(page.body).toContain('Shown on the consent page');
      expect(page.body).toContain('value="https://app.example.org/privacy?lang=de&amp;v=2"');

      // Emptied, a field removes its URI; the others stay.
      const cleared = await postForm(
        app,
        `/admin/oauthclients/${row.id}`,
        { ...pageAppEdit(), ...uris, logoUri: '' },
        { as: admin },
      );
      expect(cleared.statusCode).toBe(303);
      expect(await findClientRow(app, clientId)).toMatchObject({ ...uris, logoUri: null });
      const audit = await auditActions(app, clientId);
      expect(audit.at(-1)?.changes).toEqual({
        logoUri: { from: uris.logoUri, to: null },
      });

      for (const [field, uri, message] of [
        ['policyUri', 'javascript:alert(document.cookie)', 'must use https'],
        ['logoUri', 'data:image/svg+xml;base64,PHN2Zz4=', 'must use https'],
        ['clientUri', 'http://app.example.org/', 'must use https'],
        ['tosUri', 'https://app.example.org/x"><script>alert(1)</script>', 'contains &lt; &gt;'],
      ] as const) {
        const refused = await postForm(
          app,
          `/admin/oauthclients/${row.id}`,
          { ...pageAppEdit(), ...uris, [field]: uri },
          { as: admin },
        );
        expect(refused.statusCode, uri).toBe(400);
        expect(refused.body, uri).toContain(message);
        expect(refused.body, uri).toContain(`id="${field}-errors"`);
        expect(refused.body, uri).not.toContain('<script>alert(1)');
      }
      expect(await findClientRow(app, clientId)).toMatchObject({ ...uris, logoUri: null });
    });

    it('refuses a client name with markup, in the page language', async ({ app }) => {
      const refused = await submitNew(app, clientFields(app, { name: 'Tafel <b>Süd</b>' }), admin);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('The name must not contain &lt; or &gt;.');
      expect(refused.body).toContain('value="Tafel &lt;b&gt;Süd&lt;/b&gt;"');
    });

    it('sets the PAR requirement and a back-channel logout URI, escaped, refusing a bad URI', async ({
      app,
    }) => {
      const { row, clientId } = await createThroughForm(app);
      expect(row.requirePushedAuthorizationRequests).toBe(false);
      expect(row.backchannelLogoutUri).toBeNull();
      const fields = pageAppEdit();
      const hostile = 'https://app.example.org/bc?x="><script>alert(1)</script>';
      const changed = await postForm(
        app,
        `/admin/oauthclients/${row.id}`,
        { ...fields, requirePushedAuthorizationRequests: 'on', backchannelLogoutUri: hostile },
        { as: admin },
      );
      expect(changed.statusCode).toBe(303);
      const stored = await findClientRow(app, clientId);
      expect(stored?.requirePushedAuthorizationRequests).toBe(true);
      expect(stored?.backchannelLogoutUri).toBe(hostile);
      const page = await getPage(app, String(changed.headers.location), { as: admin });
      expect(page.body).not.toContain('<script>alert(1)');
      expect(page.body).toContain('bc?x=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page.body).toMatch(/name="requirePushedAuthorizationRequests" value="on"\s+checked/);

      const refused = await postForm(
        app,
        `/admin/oauthclients/${row.id}`,
        { ...fields, backchannelLogoutUri: 'http://app.example.org/bc' },
        { as: admin },
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('must use https');
      expect((await findClientRow(app, clientId))?.backchannelLogoutUri).toBe(hostile);
      // The server itself POSTs there: nothing inside its network (issue 31, finding 1).
      for (const [inside, why] of [
        ['https://0x7f000001:6379/', 'names a private, loopback'],
        ['https://[fd00::1]/bcl', 'names a private, loopback'],
        ['https://169.254.169.254/latest/meta-data/', 'names a private, loopback'],
        ['https://kubernetes.default.svc/bcl', 'names localhost, a name without a dot'],
      ] as const) {
        const inner = await postForm(
          app,
          `/admin/oauthclients/${row.id}`,
          { ...fields, backchannelLogoutUri: inside },
          { as: admin },
        );
        expect(inner.statusCode, inside).toBe(400);
        expect(inner.body, inside).toContain(why);
      }
      expect((await findClientRow(app, clientId))?.backchannelLogoutUri).toBe(hostile);

      // Emptied and unticked: no URI, no requirement.
      const cleared = await postForm(app, `/admin/oauthclients/${row.id}`, fields, { as: admin });
      expect(cleared.statusCode).toBe(303);
      const after = await findClientRow(app, clientId);
      expect(after?.backchannelLogoutUri).toBeNull();
      expect(after?.requirePushedAuthorizationRequests).toBe(false);
    });

    it('sets and clears the DPoP requirement, shown ticked on the client page', async ({ app }) => {
      const { row, clientId } = await createThroughForm(app);
      expect(row.requireDpop).toBe(false);
      const fields = pageAppEdit();
      const changed = await postForm(
        app,
        `/admin/oauthclients/${row.id}`,
        { ...fields, requireDpop: 'on' },
        { as: admin },
      );
      expect(changed.statusCode).toBe(303);
      expect((await findClientRow(app, clientId))?.requireDpop).toBe(true);
      const page = await getPage(app, String(changed.headers.location), { as: admin });
      expect(page.body).toMatch(/name="requireDpop" value="on"\s+checked/);
      const cleared = await postForm(app, `/admin/oauthclients/${row.id}`, fields, { as: admin });
      expect(cleared.statusCode).toBe(303);
      expect((await findClientRow(app, clientId))?.requireDpop).toBe(false);
    });

    it('writes no audit row when nothing changed', async ({ app }) => {
      const { row, clientId } = await createThroughForm(app);
      const response = await postForm(
        app,
        `/admin/oauthclients/${row.id}`,
        { ...csrfOf(admin), ...clientFields(app, { clientId }) },
        { as: admin },
      );
      expect(response.headers.location).toBe(`/admin/oauthclients/${row.id}?done=unchanged`);
      expect(await auditActions(app, clientId)).toHaveLength(1);
    });

    it('gives a public client made confidential a secret, shown once', async ({ app }) => {
      const { row } = await createThroughForm(app);
      const response = await postForm(
        app,
        `/admin/oauthclients/${row.id}`,
        { ...csrfOf(admin), ...clientFields(app, { clientId: row.clientId, confidential: 'on' }) },
        { as: admin },
      );
      expect(response.headers.location).toBe(`/admin/oauthclients/${row.id}/secret`);
      const page = await getPage(app, `/admin/oauthclients/${row.id}/secret`, { as: admin });
      const secret = shownSecret(page.body);
      const stored = await findClientRow(app, row.clientId);
      expect(verifyClientSecret(secret ?? '', stored?.secretHash ?? '', pepper(app))).toBe(true);
    });

    it('deactivates a client, which the protocol then no longer knows, and activates it again', async ({
      app,
    }) => {
      const { row, clientId } = await createThroughForm(app);
      expect(await findActiveClient(app.orm.em.fork(), clientId)).not.toBeNull();

      const off = await postForm(app, `/admin/oauthclients/${row.id}/deactivate`, csrfOf(admin), {
        as: admin,
      });
      expect(off.statusCode).toBe(303);
      expect(off.headers.location).toBe(`/admin/oauthclients/${row.id}?done=deactivated`);
      expect(await findActiveClient(app.orm.em.fork(), clientId)).toBeNull();
      const page = await getPage(app, String(off.headers.location), { as: admin });
      expect(page.body).toContain('The client is deactivated');
      expect(page.body).toContain(`action="/admin/oauthclients/${row.id}/activate"`);

      const on = await postForm(app, `/admin/oauthclients/${row.id}/activate`, csrfOf(admin), {
        as: admin,
      });
      expect(on.headers.location).toBe(`/admin/oauthclients/${row.id}?done=activated`);
      expect(await findActiveClient(app.orm.em.fork(), clientId)).not.toBeNull();
      expect(await auditActions(app, clientId)).toMatchObject([
        { action: 'create' },
        { action: 'deactivate', actorId: ids.users.orga },
        { action: 'activate', actorId: ids.users.orga },
      ]);
    });

    it('regenerates a secret: the new one shown once, the old one valid during the grace period', async ({
      app,
    }) => {
      const { row, clientId } = await createThroughForm(app, { confidential: 'on' });
      const first = shownSecret(
        (await getPage(app, `/admin/oauthclients/${row.id}/secret`, { as: admin })).body,
      );
      const response = await postForm(app, `/admin/oauthclients/${row.id}/secret`, csrfOf(admin), {
        as: admin,
      });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/admin/oauthclients/${row.id}/secret`);
      const page = await getPage(app, `/admin/oauthclients/${row.id}/secret`, { as: admin });
      const second = shownSecret(page.body);
      expect(page.body).toContain('The previous secret stays valid until');
      expect(second).not.toBeNull();
      expect(second).not.toBe(first);

      const stored = await findClientRow(app, clientId);
      if (!stored) throw new Error('client vanished');
      expect(clientSecretMatches(stored, second ?? '', pepper(app))).toBe(true);
      expect(clientSecretMatches(stored, first ?? '', pepper(app))).toBe(true);
      const expiry = stored.previousSecretExpiresAt?.getTime() ?? 0;
      expect(expiry - Date.now()).toBeGreaterThan(23 * 3_600_000);
      expect(clientSecretMatches(stored, first ?? '', pepper(app), new Date(expiry + 1))).toBe(
        false,
      );

      const audit = await auditActions(app, clientId);
      expect(audit.map((entry) => [entry.action, entry.actorId])).toEqual([
        ['create', ids.users.orga],
        ['regenerate_secret', ids.users.orga],
      ]);
      expect(JSON.stringify(audit)).not.toContain(second);
    });

    it('ends the previous secret at once from the client page, audited, when it may have leaked', async ({
      app,
    }) => {
      const { row, clientId } = await createThroughForm(app, { confidential: 'on' });
      const secretPage = (app: AuthApp) =>
        getPage(app, `/admin/oauthclients/${row.id}/secret`, { as: admin });
      const old = shownSecret((await secretPage(app)).body) ?? '';
      await postForm(app, `/admin/oauthclients/${row.id}/secret`, csrfOf(admin), { as: admin });
      const fresh = shownSecret((await secretPage(app)).body) ?? '';
      /** A real code exchange at the token endpoint, authenticated with `secret`. */
      const exchangeWith = async (app: AuthApp, secret: string) =>
        tokenRequest(
          app,
          {
            grant_type: 'authorization_code',
            code: await issueCode(app, {
              clientId,
              userId: ids.users.bob,
              scopes: ['openid'],
              redirectUri: 'https://app.example.org/callback',
            }),
            redirect_uri: 'https://app.example.org/callback',
          },
          { authorization: basicAuth(clientId, secret) },
        );
      expect((await exchangeWith(app, old)).statusCode).toBe(200);

      const endAction = `action="/admin/oauthclients/${row.id}/secret/end-previous"`;
      const page = await getPage(app, `/admin/oauthclients/${row.id}`, { as: admin });
      expect(page.body).toContain('The previous secret stays valid until');
      const form = new RegExp(`<form method="post" ${endAction}>([\\s\\S]*?)</form>`).exec(
        page.body,
      )?.[1];
      expect(form).toContain(`value="${csrfOf(admin).csrf}"`);
      expect(form).toContain('End the previous secret now');

      const ended = await postForm(
        app,
        `/admin/oauthclients/${row.id}/secret/end-previous`,
        csrfOf(admin),
        { as: admin },
      );
      expect(ended.statusCode).toBe(303);
      expect(ended.headers.location).toBe(`/admin/oauthclients/${row.id}?done=previousSecretEnded`);
      const refused = await exchangeWith(app, old);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ error: 'invalid_client' });
      expect((await exchangeWith(app, fresh)).statusCode).toBe(200);

      const after = await getPage(app, String(ended.headers.location), { as: admin });
      expect(after.body).toContain('The previous secret no longer works.');
      expect(after.body).not.toContain(endAction);
      expect(after.body).not.toContain('The previous secret stays valid until');
      expect(after.body).toContain('previous secret ended');

      // A second click (another tab) changes nothing and writes no second audit row.
      const again = await postForm(
        app,
        `/admin/oauthclients/${row.id}/secret/end-previous`,
        csrfOf(admin),
        { as: admin },
      );
      expect(again.headers.location).toBe(`/admin/oauthclients/${row.id}?done=unchanged`);
      const audit = await auditActions(app, clientId);
      expect(audit.map((entry) => [entry.action, entry.actorId])).toEqual([
        ['create', ids.users.orga],
        ['regenerate_secret', ids.users.orga],
        ['end_previous_secret', ids.users.orga],
      ]);
      expect(JSON.stringify(audit)).not.toContain(old);
    });

    it('escapes what it shows of a client on the page that offers to end its previous secret', async ({
      app,
    }) => {
      const name = '<img src=x onerror=alert(1)> & "Co"';
      const { row, clientId } = await createThroughForm(app, { confidential: 'on' });
      await giveLegacyClientName(app.orm.em.fork(), clientId, name);
      await postForm(app, `/admin/oauthclients/${row.id}/secret`, csrfOf(admin), { as: admin });
      const page = await getPage(app, `/admin/oauthclients/${row.id}`, { as: admin });
      expect(page.body).toContain('/secret/end-previous');
      expect(page.body).not.toContain('<img src=x');
      expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;');
    });

    it('offers no end of a previous secret to a client without one', async ({ app }) => {
      const confidential = await createThroughForm(app, { confidential: 'on' });
      const publicOne = await createThroughForm(app);
      for (const { row } of [confidential, publicOne]) {
        const page = await getPage(app, `/admin/oauthclients/${row.id}`, { as: admin });
        expect(page.body).not.toContain('/secret/end-previous');
      }
    });

    it('does not regenerate anything for a public client', async ({ app }) => {
      const { row, clientId } = await createThroughForm(app);
      const response = await postForm(app, `/admin/oauthclients/${row.id}/secret`, csrfOf(admin), {
        as: admin,
      });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/admin/oauthclients/${row.id}`);
      expect((await findClientRow(app, clientId))?.secretHash).toBeNull();
      expect(await auditActions(app, clientId)).toHaveLength(1);
    });
  });

  describe('deleting a client', () => {
    it('asks first, then deletes, keeping the audit trail', async ({ app }) => {
      const { row, clientId } = await createThroughForm(app, { name: 'Doomed App' });
      const confirm = await getPage(app, `/admin/oauthclients/${row.id}/delete`, { as: admin });
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain('Do you really want to delete the client “Doomed App”?');
      expect(confirm.body).toContain(`action="/admin/oauthclients/${row.id}/delete"`);
      expect(await findClientRow(app, clientId)).not.toBeNull();

      const deletedBefore = await auditCount(app, 'client_deleted');
      const response = await postForm(app, `/admin/oauthclients/${row.id}/delete`, csrfOf(admin), {
        as: admin,
      });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/admin/oauthclients?done=deleted');
      expect(await findClientRow(app, clientId)).toBeNull();
      expect(await findActiveClient(app.orm.em.fork(), clientId)).toBeNull();
      expect(await auditCount(app, 'client_deleted')).toBe(deletedBefore + 1);
      expect(await auditActions(app, clientId)).toMatchObject([
        { action: 'create' },
        { action: 'delete', actorId: ids.users.orga, changes: { name: 'Doomed App' } },
      ]);

      const list = await getPage(app, '/admin/oauthclients?done=deleted', { as: admin });
      expect(list.body).toContain('The client was deleted.');
      expect(list.body).not.toContain(`<code>${clientId}</code>`);
      expect((await getPage(app, `/admin/oauthclients/${row.id}`, { as: admin })).statusCode).toBe(
        404,
      );
      const again = await postForm(app, `/admin/oauthclients/${row.id}/delete`, csrfOf(admin), {
        as: admin,
      });
      expect(again.statusCode).toBe(404);
    });
  });

  describe('the audit log of all clients', () => {
    it('lists who did what to which client, newest first', async ({ app }) => {
      const { row, clientId } = await createThroughForm(app);
      await postForm(app, `/admin/oauthclients/${row.id}/deactivate`, csrfOf(admin), {
        as: admin,
      });
      const response = await getPage(app, '/admin/oauthclients/audit', { as: admin });
      expect(response.statusCode).toBe(200);
      const body = response.body;
      const deactivated = body.indexOf('<td>deactivated</td>');
      const created = body.indexOf(`<td><code>${clientId}</code></td>`);
      expect(deactivated).toBeGreaterThan(0);
      expect(created).toBeGreaterThan(0);
      expect(body).toContain('Olga Orgel');
      expect(body).toContain('Active: yes → no');
      // The demo clients came from the command line.
      expect(body).toContain('<td>command line</td>');
    });

    it('is German for Accept-Language de', async ({ app }) => {
      const response = await getPage(app, '/admin/oauthclients/audit', {
        as: admin,
        headers: { 'accept-language': 'de' },
      });
      expect(response.body).toContain('Änderungsprotokoll');
      expect(response.body).toContain('<td>angelegt</td>');
    });
  });

  it.for([
    '/admin/oauthclients/999999',
    '/admin/oauthclients/abc',
    '/admin/oauthclients/99999999999999999999/delete',
  ])('answers %s with the 404 page', async (path, { app }) => {
    const response = await getPage(app, path, { as: admin });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('This client does not exist');
  });
});

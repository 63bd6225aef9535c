import { DemoClientId, DemoRegionId, regenerateOAuthClientSecret, Role } from '@foodshare/domain';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import type { AuthApp } from '../app.ts';
import {
  auditRowCount,
  csrfOf,
  findClientRow,
  getPage,
  postForm,
} from '../test-support/oauth-admin-helpers.ts';
import { describe, expect, ids, it, test } from '../test-support/fixtures.ts';

type Who = 'anonymous' | 'foodsaver' | 'orga outside 6704' | 'member of 6704, not orga';

describe('who may use /admin/oauthclients', () => {
  let clientRowId: number;
  const signedIn = {} as Record<Exclude<Who, 'anonymous'> | 'admin', SignedInClient>;

  test.beforeAll(async ({ app, signIn, signInNewUser, services }) => {
    signedIn.admin = await signIn(ids.users.orga);
    signedIn.foodsaver = await signIn(ids.users.bob);
    signedIn['orga outside 6704'] = await signInNewUser(Role.Orga);
    signedIn['member of 6704, not orga'] = await signInNewUser(Role.Ambassador, [
      DemoRegionId.OAuthClientAdministration,
    ]);
    const row = await findClientRow(app, DemoClientId.confidential);
    if (!row) throw new Error('demo-confidential is missing');
    clientRowId = row.id;
    // A previous secret still valid, so that a refused "end it now" would show if it ended it.
    await regenerateOAuthClientSecret(
      app.orm.em.fork(),
      { id: row.id },
      { actorId: null, pepper: services.secrets.clientSecretPepper },
    );
  });

  const getPaths = () => [
    '/admin/oauthclients',
    '/admin/oauthclients/new',
    '/admin/oauthclients/audit',
    `/admin/oauthclients/${clientRowId}`,
    `/admin/oauthclients/${clientRowId}/delete`,
    `/admin/oauthclients/${clientRowId}/secret`,
  ];
  const postPaths = () => [
    '/admin/oauthclients/new',
    `/admin/oauthclients/${clientRowId}`,
    `/admin/oauthclients/${clientRowId}/activate`,
    `/admin/oauthclients/${clientRowId}/deactivate`,
    `/admin/oauthclients/${clientRowId}/delete`,
    `/admin/oauthclients/${clientRowId}/secret`,
    `/admin/oauthclients/${clientRowId}/secret/end-previous`,
  ];

  /** What a POST would change, to prove a refused one changed nothing. */
  async function snapshot(app: AuthApp) {
    const row = await findClientRow(app, DemoClientId.confidential);
    return {
      row: row && {
        name: row.name,
        active: row.active,
        secretHash: row.secretHash,
        previousSecretHash: row.previousSecretHash,
        redirectUris: row.redirectUris,
      },
      auditRows: await auditRowCount(app),
      created: await findClientRow(app, 'access-test-client'),
    };
  }

  // Fields that would make every POST succeed for someone allowed.
  const fields = {
    clientId: 'access-test-client',
    name: 'Changed by an intruder',
    redirectUris: 'https://intruder.example.org/cb',
    scopes: ['openid'],
    grantTypes: ['authorization_code'],
  };

  it('lets the demo orga, admin (and so member) of 6704, see every page', async ({ app }) => {
    for (const path of getPaths()) {
      const response = await getPage(app, path, { as: signedIn.admin });
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('sends someone not logged in to the login page, coming back to the page asked for', async ({
    app,
  }) => {
    for (const path of getPaths()) {
      const response = await getPage(app, `${path}?done=created`);
      expect(response.statusCode, path).toBe(303);
      const location = new URL(String(response.headers.location), 'http://x');
      expect(location.pathname).toBe('/login');
      expect(location.searchParams.get('return_to')).toBe(`${path}?done=created`);
    }
  });

  it('sends a POST without a session to the login page, back to the list, changing nothing', async ({
    app,
  }) => {
    const before = await snapshot(app);
    for (const path of postPaths()) {
      const response = await postForm(app, path, { ...fields, csrf: 'whatever' });
      expect(response.statusCode, path).toBe(303);
      expect(response.headers.location).toBe('/login?return_to=%2Fadmin%2Foauthclients');
    }
    expect(await snapshot(app)).toEqual(before);
  });

  it('treats a session whose cookie names no live session as not logged in', async ({ app }) => {
    const response = await app.inject({
      method: 'GET',
      url: '/admin/oauthclients',
      cookies: { fs_session: 'x'.repeat(43) },
    });
    expect(response.statusCode).toBe(303);
  });

  const refused: Exclude<Who, 'anonymous'>[] = [
    'foodsaver',
    'orga outside 6704',
    'member of 6704, not orga',
  ];

  it.for(refused)('refuses every page to a %s (403)', async (who, { app }) => {
    for (const path of getPaths()) {
      const response = await getPage(app, path, { as: signedIn[who] });
      expect(response.statusCode, path).toBe(403);
      expect(response.body).toContain('Access denied');
      expect(response.body).not.toContain('demo-confidential');
    }
  });

  it.for(refused)(
    'refuses every POST of a %s (403), even with the right CSRF token, changing nothing',
    async (who, { app }) => {
      const before = await snapshot(app);
      for (const path of postPaths()) {
        const response = await postForm(
          app,
          path,
          { ...fields, ...csrfOf(signedIn[who]) },
          { as: signedIn[who] },
        );
        expect(response.statusCode, path).toBe(403);
      }
      expect(await snapshot(app)).toEqual(before);
    },
  );

  it('takes a membership in 6704 away at once: the next request is refused', async ({
    app,
    signInNewUser,
  }) => {
    const admin = await signInNewUser(Role.Orga, [DemoRegionId.OAuthClientAdministration]);
    expect((await getPage(app, '/admin/oauthclients', { as: admin })).statusCode).toBe(200);
    await app.orm.em
      .fork()
      .getConnection()
      .execute('update region_memberships set active = false where user_id = ? and region_id = ?', [
        admin.userId,
        DemoRegionId.OAuthClientAdministration,
      ]);
    expect((await getPage(app, '/admin/oauthclients', { as: admin })).statusCode).toBe(403);
  });

  describe('the CSRF field of every form', () => {
    it.for([
      ['missing', {}],
      ['wrong', { csrf: '0'.repeat(32) }],
      ['empty', { csrf: '' }],
      ['of another session', 'other'],
    ] as const)(
      'refuses a %s token with 403 and changes nothing',
      async ([_case, token], { app }) => {
        const other = await signInAs(app, ids.users.orga);
        const csrf = token === 'other' ? csrfOf(other) : token;
        const before = await snapshot(app);
        for (const path of postPaths()) {
          const response = await postForm(
            app,
            path,
            { ...fields, ...csrf },
            { as: signedIn.admin },
          );
          expect(response.statusCode, path).toBe(403);
          expect(response.headers['content-type']).toMatch(/^text\/html/);
          expect(response.body).toContain('Nothing was changed');
        }
        expect(await snapshot(app)).toEqual(before);
      },
    );

    it('does not accept the token in the X-CSRF-Token header instead of the form', async ({
      app,
    }) => {
      const response = await postForm(
        app,
        `/admin/oauthclients/${clientRowId}/deactivate`,
        {},
        {
          as: signedIn.admin,
          headers: signedIn.admin.headers,
        },
      );
      expect(response.statusCode).toBe(403);
      expect((await findClientRow(app, DemoClientId.confidential))?.active).toBe(true);
    });
  });
});

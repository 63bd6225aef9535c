import { OAuthClientAuditLogEntity, OAuthClientEntity } from '@foodshare/domain';
import { clientOptions } from '../../test-support/oauth-clients.ts';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { createClientCommand } from './create.command.ts';
import { setPostLogoutRedirectUrisCommand } from './set-options.command.ts';

describe('clients set-post-logout-uris', () => {
  it('replaces the post-logout redirect URIs only, audited, and clears them when none are given', async ({
    db,
  }) => {
    await createClientCommand(
      db.em(),
      clientOptions({
        clientId: 'logout-app',
        postLogoutRedirectUris: ['https://app.example/bye'],
      }),
    );
    const changed = await setPostLogoutRedirectUrisCommand(db.em(), {
      clientId: 'logout-app',
      postLogoutRedirectUris: ['https://app.example/signed-out', 'http://localhost:3000/out'],
    });
    expect(changed.changedFields).toEqual(['postLogoutRedirectUris']);
    const stored = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'logout-app' });
    expect(stored).toMatchObject({
      name: 'Web app',
      redirectUris: ['https://app.example/callback'],
      postLogoutRedirectUris: ['https://app.example/signed-out', 'http://localhost:3000/out'],
    });

    await setPostLogoutRedirectUrisCommand(db.em(), {
      clientId: 'logout-app',
      postLogoutRedirectUris: [],
    });
    const cleared = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'logout-app' });
    expect(cleared.postLogoutRedirectUris).toEqual([]);
    const audit = await db
      .em()
      .find(OAuthClientAuditLogEntity, { clientId: 'logout-app' }, { orderBy: { id: 'asc' } });
    expect(audit.map((entry) => entry.action)).toEqual(['create', 'update', 'update']);
  });

  it('refuses an unknown client and a bad URI', async ({ db }) => {
    // The web app that the clients create tests register first, in a file of their own.
    await createClientCommand(db.em(), clientOptions());
    await expect(
      setPostLogoutRedirectUrisCommand(db.em(), { clientId: 'nobody', postLogoutRedirectUris: [] }),
    ).rejects.toMatchObject({ code: 'CLIENT_NOT_FOUND' });
    await expect(
      setPostLogoutRedirectUrisCommand(db.em(), {
        clientId: 'web-app',
        postLogoutRedirectUris: ['https://app.example/bye#frag'],
      }),
    ).rejects.toMatchObject({ code: 'INVALID_REDIRECT_URI' });
  });
});

import { OAuthClientEntity, verifyClientSecret } from '@foodshare/domain';
import { auditActions, pepper, registerClient } from '../../test-support/oauth-clients.ts';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { clientChangesOf, updateClientCommand } from './update.command.ts';

describe('clients update', () => {
  it('changes what is given, keeps the rest, and audits the change', async ({ db }) => {
    await registerClient(db, 'update-me', { postLogoutRedirectUris: ['https://app.example/bye'] });
    const updated = await updateClientCommand(db.em(), {
      clientId: 'update-me',
      changes: { name: 'Renamed', scopes: ['openid', 'email'] },
      pepper,
    });
    expect(updated).toMatchObject({
      name: 'Renamed',
      scopes: ['openid', 'email'],
      redirectUris: ['https://app.example/callback'],
      postLogoutRedirectUris: ['https://app.example/bye'],
      changedFields: ['name', 'scopes'],
      secret: null,
    });
    expect(await auditActions(db, 'update-me')).toEqual(['create', 'update']);
  });

  it('gives a public client made confidential a secret, once', async ({ db }) => {
    await registerClient(db, 'goes-confidential');
    const updated = await updateClientCommand(db.em(), {
      clientId: 'goes-confidential',
      changes: { confidential: true },
      pepper,
    });
    expect(updated.secret).toEqual(expect.any(String));
    const stored = await db
      .em()
      .findOneOrFail(OAuthClientEntity, { clientId: 'goes-confidential' });
    expect(verifyClientSecret(updated.secret!, stored.secretHash!, pepper)).toBe(true);
  });

  it('refuses an invalid setting in words', async ({ db }) => {
    await registerClient(db, 'stays-valid');
    await expect(
      updateClientCommand(db.em(), {
        clientId: 'stays-valid',
        changes: { redirectUris: ['http://example.org/callback'] },
        pepper,
      }),
    ).rejects.toMatchObject({ code: 'INVALID_REDIRECT_URI' });
  });

  it.for<[string, Parameters<typeof clientChangesOf>[0], RegExp]>([
    ['nothing', { clientId: 'x' }, /Nothing to change/],
    [
      'both kinds',
      { clientId: 'x', confidential: true, public: true },
      /--confidential or --public/,
    ],
    [
      'regions and none',
      { clientId: 'x', requiredRegion: [3], clearRequiredRegions: true },
      /--clear-required-regions/,
    ],
  ])('refuses flags that say %s', ([_what, flags, message]) => {
    expect(() => clientChangesOf(flags)).toThrow(message);
  });

  it('reads the clearing flags as empty lists', () => {
    expect(
      clientChangesOf({
        clientId: 'x',
        clearRequiredRegions: true,
        clearPostLogoutRedirectUris: true,
      }),
    ).toEqual({ requiredRegionIds: [], postLogoutRedirectUris: [] });
  });
});

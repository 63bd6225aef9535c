import {
  createRegion,
  hashClientSecret,
  OAuthClientAuditLogEntity,
  OAuthClientEntity,
  RegionType,
  verifyClientSecret,
} from '@foodshare/domain';
import { clientOptions, pepper } from '../../test-support/oauth-clients.ts';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import type { CreateClientOptions } from './client-settings.ts';
import { createClientCommand } from './create.command.ts';

describe('clients create', () => {
  it('registers a public client without a secret', async ({ db }) => {
    const created = await createClientCommand(
      db.em(),
      clientOptions({
        scopes: ['openid', 'profile', 'email', 'regions'],
        grantTypes: [
          'authorization_code',
          'refresh_token',
          'urn:ietf:params:oauth:grant-type:device_code',
        ],
      }),
    );
    expect(created).toMatchObject({
      clientId: 'web-app',
      name: 'Web app',
      confidential: false,
      redirectUris: ['https://app.example/callback'],
      scopes: ['openid', 'profile', 'email', 'regions'],
      grantTypes: [
        'authorization_code',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
      requiredRegionIds: [],
      secret: null,
    });
    const stored = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'web-app' });
    expect(stored.secretHash).toBeNull();
    expect(stored.active).toBe(true);
    const audit = await db.em().find(OAuthClientAuditLogEntity, { clientId: 'web-app' });
    expect(audit.map((entry) => entry.action)).toEqual(['create']);
  });

  it('gives a confidential client a 256-bit secret and stores only its HMAC', async ({ db }) => {
    const created = await createClientCommand(
      db.em(),
      clientOptions({ clientId: 'server-app', confidential: true }),
    );
    expect(created.secret).toMatch(/^[0-9a-f]{64}$/);
    const stored = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'server-app' });
    expect(stored.secretHash).toBe(hashClientSecret(created.secret!, pepper));
    expect(stored.secretHash).not.toContain(created.secret);
    expect(verifyClientSecret(created.secret!, stored.secretHash!, pepper)).toBe(true);
    expect(verifyClientSecret(created.secret!, stored.secretHash!, 'another pepper')).toBe(false);

    const other = await createClientCommand(
      db.em(),
      clientOptions({ clientId: 'server-app-2', confidential: true }),
    );
    expect(other.secret).not.toBe(created.secret);
  });

  it('limits a client to required regions that exist', async ({ db }) => {
    const region = await createRegion(db.em(), { name: 'Kiel', type: RegionType.City });
    const created = await createClientCommand(
      db.em(),
      clientOptions({ clientId: 'kiel-app', requiredRegionIds: [region.id] }),
    );
    expect(created.requiredRegionIds).toEqual([region.id]);
    await expect(
      createClientCommand(
        db.em(),
        clientOptions({ clientId: 'nowhere-app', requiredRegionIds: [999_999] }),
      ),
    ).rejects.toMatchObject({ code: 'REGION_NOT_FOUND' });
  });

  it.for([
    'http://localhost:3000/callback',
    'http://127.0.0.1:8080/cb',
    'http://[::1]:9999/cb',
    'https://app.example/cb?from=oauth',
    // RFC 8252 7.1: a native app's own scheme, a reverse domain name, for a public client.
    'org.example.app:/oauth2redirect',
    'com.example.app:/cb',
  ])('accepts the redirect URI %s', async (uri, { db }) => {
    const clientId = `ok-${Math.random().toString(36).slice(2, 10)}`;
    const created = await createClientCommand(
      db.em(),
      clientOptions({ clientId, redirectUris: [uri] }),
    );
    expect(created.redirectUris).toEqual([uri]);
  });

  it.for<[string, RegExp]>([
    ['http://app.example/callback', /https/],
    ['https://app.example/callback#done', /fragment/],
    ['https://*.app.example/callback', /wildcard/],
    ['https://app.example/*', /wildcard/],
    ['https://user:password@app.example/cb', /credentials/],
    ['ftp://app.example/cb', /https/],
    ['myapp:/cb', /reverse/],
    ['javascript:alert(1)', /browser runs/],
    ['data:text/html,x', /browser runs/],
    ['http://127.0.0.1:8080/cb#x', /fragment/],
    ['http://127.0.0.1.evil.example/cb', /https/],
    ['/relative/callback', /absolute/],
    ['https://app.example/call back', /white space/],
  ])('refuses the redirect URI %s', async ([uri, reason], { db }) => {
    const attempt = createClientCommand(
      db.em(),
      clientOptions({ clientId: 'refused', redirectUris: [uri] }),
    );
    await expect(attempt).rejects.toMatchObject({ code: 'INVALID_REDIRECT_URI' });
    await expect(attempt).rejects.toThrow(reason);
    expect(await db.em().count(OAuthClientEntity, { clientId: 'refused' })).toBe(0);
  });

  it('refuses an app scheme for a confidential client, storing nothing', async ({ db }) => {
    const attempt = createClientCommand(
      db.em(),
      clientOptions({
        clientId: 'refused',
        confidential: true,
        redirectUris: ['org.example.app:/oauth2redirect'],
      }),
    );
    await expect(attempt).rejects.toMatchObject({ code: 'INVALID_REDIRECT_URI' });
    await expect(attempt).rejects.toThrow(/only a public client/);
    expect(await db.em().count(OAuthClientEntity, { clientId: 'refused' })).toBe(0);
  });

  it.for<[Partial<CreateClientOptions>, RegExp]>([
    [{ scopes: ['profile'] }, /include openid/],
    [{ scopes: ['openid', 'offline_access'] }, /Unknown scope offline_access/],
    [{ grantTypes: ['refresh_token'] }, /include authorization_code/],
    [{ grantTypes: ['authorization_code', 'implicit'] }, /Unknown grant type implicit/],
    [{ redirectUris: [] }, /redirect URI/],
    [{ clientId: 'has space' }, /client id/],
    [{ name: '' }, /client name/],
    [{ postLogoutRedirectUris: ['http://app.example/bye'] }, /post-logout redirect URI.*https/],
  ])('refuses %o', async ([change, message], { db }) => {
    await expect(
      createClientCommand(db.em(), clientOptions({ clientId: 'refused', ...change })),
    ).rejects.toThrow(message);
  });

  it('refuses a client id that is taken', async ({ db }) => {
    await expect(createClientCommand(db.em(), clientOptions())).rejects.toMatchObject({
      code: 'CLIENT_ID_TAKEN',
    });
  });
});

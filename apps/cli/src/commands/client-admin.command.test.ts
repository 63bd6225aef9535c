import { clientGrantCutoffKey } from '@foodshare/server-kit/oauth-grants';
import {
  OAuthClientAuditLogEntity,
  OAuthClientEntity,
  clientSecretMatches,
  OAuthRevocationEntity,
  verifyClientSecret,
} from '@foodshare/domain';
import { openKeyValueStore, type KeyValueStore } from '@foodshare/server-kit';
import { workerRedis } from '@foodshare/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestOrm } from '../test-support/test-orm.ts';
import {
  clientChangesOf,
  deleteClientCommand,
  endingGrantsWith,
  endPreviousSecretCommand,
  listClientsCommand,
  rotateSecretCommand,
  setClientActiveCommand,
  showClientCommand,
  updateClientCommand,
} from './client-admin.command.ts';
import { createClientCommand, type CreateClientOptions } from './clients.command.ts';

const db = useTestOrm();
const pepper = 'pepper-of-this-test';
let store: KeyValueStore;

beforeAll(async () => {
  const redis = workerRedis('cli');
  store = await openKeyValueStore({ redis: { url: redis.url }, keyPrefix: redis.keyPrefix });
});
afterAll(() => store.close());

function register(clientId: string, change: Partial<CreateClientOptions> = {}) {
  return createClientCommand(db.em(), {
    clientId,
    name: `App ${clientId}`,
    confidential: false,
    redirectUris: ['https://app.example/callback'],
    scopes: ['openid'],
    grantTypes: ['authorization_code'],
    requiredRegionIds: [],
    pepper,
    ...change,
  });
}

const ending = () => endingGrantsWith(db.orm, store, {});

async function auditActions(clientId: string): Promise<string[]> {
  const rows = await db
    .em()
    .find(OAuthClientAuditLogEntity, { clientId }, { orderBy: { id: 'asc' } });
  return rows.map((row) => row.action);
}

/** The cutoff as the token checks read it: in the key-value store and in PostgreSQL. */
async function cutoffOf(clientId: string) {
  const key = clientGrantCutoffKey(clientId);
  const row = await db.em().findOne(OAuthRevocationEntity, { key });
  return { kept: await store.get(key), recorded: row?.value ?? null };
}

describe('clients list and show', () => {
  it('lists every client by client id, with its state and no secret', async () => {
    await register('list-b');
    await register('list-a', { confidential: true });
    const list = await listClientsCommand(db.em());
    const ids = list.map((client) => client.clientId);
    expect(ids.indexOf('list-a')).toBeLessThan(ids.indexOf('list-b'));
    const a = list.find((client) => client.clientId === 'list-a');
    expect(a).toMatchObject({ confidential: true, active: true, previousSecretValidUntil: null });
    expect(a).not.toHaveProperty('secret');
    expect(await showClientCommand(db.em(), 'list-a')).toEqual(a);
  });

  it('names an unknown client', async () => {
    await expect(showClientCommand(db.em(), 'nobody')).rejects.toMatchObject({
      code: 'CLIENT_NOT_FOUND',
    });
  });
});

describe('clients update', () => {
  it('changes what is given, keeps the rest, and audits the change', async () => {
    await register('update-me', { postLogoutRedirectUris: ['https://app.example/bye'] });
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
    expect(await auditActions('update-me')).toEqual(['create', 'update']);
  });

  it('gives a public client made confidential a secret, once', async () => {
    await register('goes-confidential');
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

  it('refuses an invalid setting in words', async () => {
    await register('stays-valid');
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

describe('clients deactivate, activate and delete', () => {
  it('deactivating ends every grant: a cutoff in the store and in PostgreSQL', async () => {
    await register('to-deactivate');
    const before = Date.now();
    const result = await setClientActiveCommand(db.em(), 'to-deactivate', false, ending());
    expect(result).toEqual({ clientId: 'to-deactivate', active: false, changed: true });
    const stored = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'to-deactivate' });
    expect(stored.active).toBe(false);
    const { kept, recorded } = await cutoffOf('to-deactivate');
    expect(kept).not.toBeNull();
    expect(recorded).toBe(kept);
    // PostgreSQL's clock plus the margin: after the change, whatever the skew of a few seconds.
    expect(Number(kept)).toBeGreaterThan(before - 2_000);
    expect(await auditActions('to-deactivate')).toEqual(['create', 'deactivate']);

    const again = await setClientActiveCommand(db.em(), 'to-deactivate', false, ending());
    expect(again.changed).toBe(false);

    const back = await setClientActiveCommand(db.em(), 'to-deactivate', true, ending());
    expect(back).toEqual({ clientId: 'to-deactivate', active: true, changed: true });
    expect(await auditActions('to-deactivate')).toEqual(['create', 'deactivate', 'activate']);
    await store.delete(clientGrantCutoffKey('to-deactivate'));
  });

  it('deleting removes the client, keeps the audit trail and ends its grants', async () => {
    await register('to-delete');
    expect(await deleteClientCommand(db.em(), 'to-delete', ending())).toEqual({
      clientId: 'to-delete',
      deleted: true,
    });
    expect(await db.em().count(OAuthClientEntity, { clientId: 'to-delete' })).toBe(0);
    expect(await auditActions('to-delete')).toEqual(['create', 'delete']);
    expect((await cutoffOf('to-delete')).kept).not.toBeNull();
    await store.delete(clientGrantCutoffKey('to-delete'));
  });

  it('changes nothing for an unknown client', async () => {
    await expect(deleteClientCommand(db.em(), 'never-was', ending())).rejects.toMatchObject({
      code: 'CLIENT_NOT_FOUND',
    });
    expect((await cutoffOf('never-was')).kept).toBeNull();
  });
});

describe('clients rotate-secret', () => {
  it('gives a new secret and keeps the previous one valid for a day', async () => {
    const created = await register('rotating', { confidential: true });
    const rotated = await rotateSecretCommand(db.em(), 'rotating', pepper);
    const stored = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'rotating' });
    expect(verifyClientSecret(rotated.secret, stored.secretHash!, pepper)).toBe(true);
    expect(verifyClientSecret(created.secret!, stored.previousSecretHash!, pepper)).toBe(true);
    const hours = (Date.parse(rotated.previousSecretValidUntil) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect((await showClientCommand(db.em(), 'rotating')).previousSecretValidUntil).toBe(
      rotated.previousSecretValidUntil,
    );
  });

  it('refuses a public client, which has no secret', async () => {
    await register('public-one');
    await expect(rotateSecretCommand(db.em(), 'public-one', pepper)).rejects.toMatchObject({
      code: 'CLIENT_NOT_CONFIDENTIAL',
    });
  });
});

describe('clients end-previous-secret', () => {
  it('ends the secret a rotation replaced at once, not 24 hours later', async () => {
    const created = await register('leaked-secret', { confidential: true });
    const rotated = await rotateSecretCommand(db.em(), 'leaked-secret', pepper);
    const before = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'leaked-secret' });
    // The leaked secret still authenticates the client after the rotation...
    expect(clientSecretMatches(before, created.secret!, pepper)).toBe(true);

    const ended = await endPreviousSecretCommand(db.em(), 'leaked-secret');
    expect(ended).toEqual({ clientId: 'leaked-secret', ended: true });
    const after = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'leaked-secret' });
    // ...and no longer once ended; the new one still does.
    expect(clientSecretMatches(after, created.secret!, pepper)).toBe(false);
    expect(clientSecretMatches(after, rotated.secret, pepper)).toBe(true);
    expect((await showClientCommand(db.em(), 'leaked-secret')).previousSecretValidUntil).toBeNull();
    expect(await auditActions('leaked-secret')).toEqual([
      'create',
      'regenerate_secret',
      'end_previous_secret',
    ]);

    // A second time there is nothing to end, and nothing is written.
    expect(await endPreviousSecretCommand(db.em(), 'leaked-secret')).toEqual({
      clientId: 'leaked-secret',
      ended: false,
    });
    expect(await auditActions('leaked-secret')).toHaveLength(3);
  });

  it('refuses an unknown client', async () => {
    await expect(endPreviousSecretCommand(db.em(), 'no-such-client')).rejects.toMatchObject({
      code: 'CLIENT_NOT_FOUND',
    });
  });
});

import { OAuthClientEntity } from '@foodshare/domain';
import { clientGrantCutoffKey } from '@foodshare/server-kit/oauth-grants';
import { auditActions, cutoffOf, registerClient } from '../../test-support/oauth-clients.ts';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { endingGrantsWith } from './ending-grants.ts';
import { deleteClientCommand, setClientActiveCommand } from './lifecycle.command.ts';

describe('clients deactivate, activate and delete', () => {
  it('deactivating ends every grant: a cutoff in the store and in PostgreSQL', async ({
    db,
    store,
  }) => {
    await registerClient(db, 'to-deactivate');
    const before = Date.now();
    const result = await setClientActiveCommand(
      db.em(),
      'to-deactivate',
      false,
      endingGrantsWith(db.orm, store, {}),
    );
    expect(result).toEqual({ clientId: 'to-deactivate', active: false, changed: true });
    const stored = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'to-deactivate' });
    expect(stored.active).toBe(false);
    const { kept, recorded } = await cutoffOf(db, store, 'to-deactivate');
    expect(kept).not.toBeNull();
    expect(recorded).toBe(kept);
    // PostgreSQL's clock plus the margin: after the change, whatever the skew of a few seconds.
    expect(Number(kept)).toBeGreaterThan(before - 2_000);
    expect(await auditActions(db, 'to-deactivate')).toEqual(['create', 'deactivate']);

    const again = await setClientActiveCommand(
      db.em(),
      'to-deactivate',
      false,
      endingGrantsWith(db.orm, store, {}),
    );
    expect(again.changed).toBe(false);

    const back = await setClientActiveCommand(
      db.em(),
      'to-deactivate',
      true,
      endingGrantsWith(db.orm, store, {}),
    );
    expect(back).toEqual({ clientId: 'to-deactivate', active: true, changed: true });
    expect(await auditActions(db, 'to-deactivate')).toEqual(['create', 'deactivate', 'activate']);
    await store.delete(clientGrantCutoffKey('to-deactivate'));
  });

  it('deleting removes the client, keeps the audit trail and ends its grants', async ({
    db,
    store,
  }) => {
    await registerClient(db, 'to-delete');
    expect(
      await deleteClientCommand(db.em(), 'to-delete', endingGrantsWith(db.orm, store, {})),
    ).toEqual({
      clientId: 'to-delete',
      deleted: true,
    });
    expect(await db.em().count(OAuthClientEntity, { clientId: 'to-delete' })).toBe(0);
    expect(await auditActions(db, 'to-delete')).toEqual(['create', 'delete']);
    expect((await cutoffOf(db, store, 'to-delete')).kept).not.toBeNull();
    await store.delete(clientGrantCutoffKey('to-delete'));
  });

  it('changes nothing for an unknown client', async ({ db, store }) => {
    await expect(
      deleteClientCommand(db.em(), 'never-was', endingGrantsWith(db.orm, store, {})),
    ).rejects.toMatchObject({
      code: 'CLIENT_NOT_FOUND',
    });
    expect((await cutoffOf(db, store, 'never-was')).kept).toBeNull();
  });
});

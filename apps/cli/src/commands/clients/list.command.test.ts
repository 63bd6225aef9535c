import { registerClient } from '../../test-support/oauth-clients.ts';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { listClientsCommand } from './list.command.ts';
import { showClientCommand } from './show.command.ts';

describe('clients list and show', () => {
  it('lists every client by client id, with its state and no secret', async ({ db }) => {
    await registerClient(db, 'list-b');
    await registerClient(db, 'list-a', { confidential: true });
    const list = await listClientsCommand(db.em());
    const ids = list.map((client) => client.clientId);
    expect(ids.indexOf('list-a')).toBeLessThan(ids.indexOf('list-b'));
    const a = list.find((client) => client.clientId === 'list-a');
    expect(a).toMatchObject({ confidential: true, active: true, previousSecretValidUntil: null });
    expect(a).not.toHaveProperty('secret');
    expect(await showClientCommand(db.em(), 'list-a')).toEqual(a);
  });

  it('names an unknown client', async ({ db }) => {
    await expect(showClientCommand(db.em(), 'nobody')).rejects.toMatchObject({
      code: 'CLIENT_NOT_FOUND',
    });
  });
});

import { OAuthClientEntity, verifyClientSecret, clientSecretMatches } from '@foodshare/domain';
import { auditActions, pepper, registerClient } from '../../test-support/oauth-clients.ts';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { showClientCommand } from './show.command.ts';
import { endPreviousSecretCommand, rotateSecretCommand } from './secrets.command.ts';

describe('clients rotate-secret', () => {
  it('gives a new secret and keeps the previous one valid for a day', async ({ db }) => {
    const created = await registerClient(db, 'rotating', { confidential: true });
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

  it('refuses a public client, which has no secret', async ({ db }) => {
    await registerClient(db, 'public-one');
    await expect(rotateSecretCommand(db.em(), 'public-one', pepper)).rejects.toMatchObject({
      code: 'CLIENT_NOT_CONFIDENTIAL',
    });
  });
});

describe('clients end-previous-secret', () => {
  it('ends the secret a rotation replaced at once, not 24 hours later', async ({ db }) => {
    const created = await registerClient(db, 'leaked-secret', { confidential: true });
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
    expect(await auditActions(db, 'leaked-secret')).toEqual([
      'create',
      'regenerate_secret',
      'end_previous_secret',
    ]);

    // A second time there is nothing to end, and nothing is written.
    expect(await endPreviousSecretCommand(db.em(), 'leaked-secret')).toEqual({
      clientId: 'leaked-secret',
      ended: false,
    });
    expect(await auditActions(db, 'leaked-secret')).toHaveLength(3);
  });

  it('refuses an unknown client', async ({ db }) => {
    await expect(endPreviousSecretCommand(db.em(), 'no-such-client')).rejects.toMatchObject({
      code: 'CLIENT_NOT_FOUND',
    });
  });
});

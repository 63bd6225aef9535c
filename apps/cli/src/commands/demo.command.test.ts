import { DemoUserEmail, hashClientSecret, OAuthClientEntity, UserEntity } from '@foodshare/domain';
import { describe, expect, it } from '../test-support/fixtures.ts';
import { loadDemoCommand } from './demo.command.ts';

describe('demo load', () => {
  it('refuses in production unless allowed, before touching the database', async ({ db }) => {
    await expect(loadDemoCommand(db.em(), { pepper: 'p', production: true })).rejects.toMatchObject(
      { code: 'REFUSED_IN_PRODUCTION' },
    );
    expect(await db.em().count(UserEntity, {})).toBe(0);
  });

  it('loads the demo data into an empty database, with the given pepper', async ({ db }) => {
    const result = await loadDemoCommand(db.em(), {
      pepper: 'deployment pepper',
      production: false,
    });
    expect(result).toMatchObject({ loaded: true, password: 'demo-password' });
    const alice = await db.em().findOneOrFail(UserEntity, { email: DemoUserEmail.alice });
    expect(result.ids.users.alice).toBe(alice.id);
    const client = await db
      .em()
      .findOneOrFail(OAuthClientEntity, { clientId: 'demo-confidential' });
    expect(client.secretHash).toBe(hashClientSecret('demo-secret', 'deployment pepper'));
  });

  it('refuses a database that has users', async ({ db }) => {
    const users = await db.em().count(UserEntity, {});
    await expect(
      loadDemoCommand(db.em(), { pepper: 'p', production: false }),
    ).rejects.toMatchObject({ code: 'DATABASE_NOT_EMPTY' });
    await expect(
      loadDemoCommand(db.em(), { pepper: 'p', production: true, allowProduction: true }),
    ).rejects.toMatchObject({ code: 'DATABASE_NOT_EMPTY' });
    expect(await db.em().count(UserEntity, {})).toBe(users);
  });
});

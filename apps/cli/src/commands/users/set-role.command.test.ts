import { Role, UserEntity } from '@foodshare/domain';
import { SessionStore } from '@foodshare/server-kit';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { createUserCommand } from './create.command.ts';
import { setRoleCommand } from './set-role.command.ts';

const ada = {
  email: 'Ada.Lovelace@Example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  password: 'analytical-engine',
};

describe('users set-role', () => {
  it('changes the role and reports the previous one', async ({ db, store }) => {
    await createUserCommand(db.em(), { ...ada, email: 'turing@example.org', role: Role.Foodsaver });
    const result = await setRoleCommand(db.em(), store, {
      email: 'Turing@Example.org',
      role: Role.Orga,
    });
    expect(result).toMatchObject({
      email: 'turing@example.org',
      role: Role.Orga,
      previousRole: Role.Foodsaver,
    });
    expect((await db.em().findOneOrFail(UserEntity, result.id)).role).toBe(Role.Orga);
  });

  it('gives the user’s live sessions the new role, and no one else’s', async ({
    db,
    store,
    newUser,
  }) => {
    const target = await newUser({ role: Role.Foodsaver });
    const bystander = await newUser({ role: Role.Foodsaver });
    const sessions = new SessionStore(store);
    const account = { role: Role.Foodsaver, verified: false };
    const phone = await sessions.create(target.id, { rememberMe: true, account });
    const laptop = await sessions.create(target.id, { rememberMe: false, account });
    const other = await sessions.create(bystander.id, { rememberMe: false, account });

    await setRoleCommand(db.em(), store, { email: target.email, role: Role.Ambassador });
    for (const session of [phone, laptop]) {
      expect((await sessions.find(session.id))?.account).toMatchObject({
        role: Role.Ambassador,
        verified: false,
      });
    }
    expect((await sessions.find(other.id))?.account).toMatchObject({ role: Role.Foodsaver });
  });

  it('refuses an unknown email address', async ({ db, store }) => {
    await expect(
      setRoleCommand(db.em(), store, { email: 'nobody@example.org', role: Role.Orga }),
    ).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });
});

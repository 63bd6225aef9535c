import { Role, UserEntity } from '@foodshare/domain';
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
  it('changes the role and reports the previous one', async ({ db }) => {
    await createUserCommand(db.em(), { ...ada, email: 'turing@example.org', role: Role.Foodsaver });
    const result = await setRoleCommand(db.em(), {
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

  it('refuses an unknown email address', async ({ db }) => {
    await expect(
      setRoleCommand(db.em(), { email: 'nobody@example.org', role: Role.Orga }),
    ).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });
});

import { Role } from '@foodshare/domain';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { deactivateUserCommand } from './deactivate.command.ts';
import { listUsersCommand } from './list.command.ts';

describe('users list', () => {
  it('pages through users by id, filtered by role and by deactivation', async ({
    db,
    store,
    newUser,
  }) => {
    const orga = await newUser({ role: Role.Orga });
    const other = await newUser({ role: Role.Orga });
    await newUser({ role: Role.Foodsaver });
    const orgas = await listUsersCommand(db.em(), { limit: 1000, offset: 0, role: Role.Orga });
    const ids = orgas.map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toEqual(expect.arrayContaining([orga.id, other.id]));
    expect(orgas.every((item) => item.role === Role.Orga)).toBe(true);

    const second = await listUsersCommand(db.em(), {
      limit: 1,
      offset: ids.indexOf(other.id),
      role: Role.Orga,
    });
    expect(second.map((item) => item.id)).toEqual([other.id]);

    await deactivateUserCommand(db.em(), store, { id: orga.id });
    const deactivated = await listUsersCommand(db.em(), {
      limit: 1000,
      offset: 0,
      deactivated: true,
    });
    expect(deactivated.map((item) => item.id)).toContain(orga.id);
    expect(deactivated.map((item) => item.id)).not.toContain(other.id);
    expect(deactivated.every((item) => !item.activated)).toBe(true);
  });
});

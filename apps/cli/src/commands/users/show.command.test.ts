import { createRegion, RegionType } from '@foodshare/domain';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { showUserCommand } from './show.command.ts';

describe('users show', () => {
  it('shows a user by email or id, with the regions they are a member of', async ({
    db,
    newUser,
  }) => {
    const region = await createRegion(db.em(), {
      name: 'Showstadt',
      type: RegionType.City,
      parentId: null,
    });
    const shown = await newUser({ homeRegionId: region.id });
    const byEmail = await showUserCommand(db.em(), { email: shown.email.toUpperCase() });
    expect(byEmail).toMatchObject({
      id: shown.id,
      email: shown.email,
      activated: true,
      memberOf: [region.id],
      lastLoginAt: null,
    });
    expect(await showUserCommand(db.em(), { id: shown.id })).toEqual(byEmail);
  });

  it('names an unknown user', async ({ db }) => {
    await expect(showUserCommand(db.em(), { id: 999_999 })).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
    });
  });
});

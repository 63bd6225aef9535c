import {
  AccountError,
  createRegion,
  RegionMembershipEntity,
  RegionType,
  Role,
  UserEntity,
  verifyPassword,
} from '@foodshare/domain';
import { describe, expect, it } from '../../test-support/fixtures.ts';
import { createUserCommand, type CreateUserOptions } from './create.command.ts';

const ada = {
  email: 'Ada.Lovelace@Example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  password: 'analytical-engine',
};

describe('users create', () => {
  it('stores the user with a lower-case email and an argon2id hash of the password', async ({
    db,
  }) => {
    const created = await createUserCommand(db.em(), {
      ...ada,
      role: Role.Foodsaver,
      verified: true,
    });
    expect(created).toMatchObject({
      email: 'ada.lovelace@example.org',
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: Role.Foodsaver,
      verified: true,
      homeRegionId: null,
    });

    const stored = await db.em().findOneOrFail(UserEntity, created.id);
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(stored.passwordHash, ada.password)).toBe(true);
    expect(await verifyPassword(stored.passwordHash, 'wrong password')).toBe(false);
  });

  it('refuses an email address that is taken, whatever its case', async ({ db }) => {
    const attempt = createUserCommand(db.em(), { ...ada, email: ' ADA.LOVELACE@example.ORG ' });
    await expect(attempt).rejects.toThrow(AccountError);
    await expect(attempt).rejects.toMatchObject({
      code: 'EMAIL_TAKEN',
      message: 'A user with the email address ada.lovelace@example.org already exists',
    });
    expect(await db.em().count(UserEntity, { email: 'ada.lovelace@example.org' })).toBe(1);
  });

  it('makes the user a member of the home region', async ({ db }) => {
    const region = await createRegion(db.em(), { name: 'Göttingen', type: RegionType.City });
    const created = await createUserCommand(db.em(), {
      ...ada,
      email: 'grace@example.org',
      homeRegionId: region.id,
    });
    expect(created).toMatchObject({
      role: Role.Foodsharer,
      verified: false,
      homeRegionId: region.id,
    });
    const membership = await db
      .em()
      .findOne(RegionMembershipEntity, { user: created.id, region: region.id });
    expect(membership?.active).toBe(true);
  });

  it.for<[Partial<CreateUserOptions>, string]>([
    [{ email: 'no-at-sign' }, 'INVALID_INPUT'],
    [{ password: 'short' }, 'INVALID_INPUT'],
    [{ firstName: '  ' }, 'INVALID_INPUT'],
    [{ role: 7 as Role }, 'INVALID_INPUT'],
    [{ homeRegionId: 999_999 }, 'REGION_NOT_FOUND'],
  ])('refuses %o with %s', async ([change, code], { db }) => {
    await expect(
      createUserCommand(db.em(), { ...ada, email: 'someone@example.org', ...change }),
    ).rejects.toMatchObject({ code });
    expect(await db.em().count(UserEntity, { email: 'someone@example.org' })).toBe(0);
  });
});

import { UserEntity } from '../entities/index.ts';
import { describe, expect, it, test } from '../test-support/fixtures.ts';

let userId: number;

test.beforeAll(async ({ orm }) => {
  const [row] = await orm.em.fork().execute<{ id: number }[]>(
    `insert into users (first_name, last_name, email, password_hash)
       values ('Request', 'Manager', 'request-manager@example.org', 'x') returning id`,
  );
  userId = row!.id;
});

// The EntityManager each request works in (server-kit's plugins/orm.ts): `orm.em.fork()`.
describe('the request EntityManager', () => {
  it('is set up as a fork of the root EntityManager is', ({ orm }) => {
    const fork = orm.em.fork();
    const em = orm.em.fork();
    expect(em).toBeInstanceOf(fork.constructor);
    expect(em.getEventManager()).toBe(fork.getEventManager());
    expect(em.getDriver()).toBe(fork.getDriver());
    expect(em.isInTransaction()).toBe(false);
    expect(em.id).not.toBe(orm.em.id);
    expect(em.id).not.toBe(orm.em.fork().id);
  });

  it('works where the root EntityManager refuses (no global context), with an identity map of its own', async ({
    orm,
  }) => {
    await expect(orm.em.findOne(UserEntity, userId)).rejects.toThrow(/global/i);
    const first = orm.em.fork();
    const second = orm.em.fork();
    const user = await first.findOneOrFail(UserEntity, userId);
    expect(first.getUnitOfWork().getById(UserEntity, userId)).toBe(user);
    expect(second.getUnitOfWork().getById(UserEntity, userId)).toBeUndefined();
    expect(await second.findOneOrFail(UserEntity, userId)).not.toBe(user);
  });

  it('runs transactions and flushes changes as a fork does', async ({ orm }) => {
    await orm.em.fork().transactional(async (em) => {
      expect(em.isInTransaction()).toBe(true);
      const user = await em.findOneOrFail(UserEntity, userId);
      user.firstName = 'Renamed';
    });
    const reread = await orm.em.fork().findOneOrFail(UserEntity, userId);
    expect(reread.firstName).toBe('Renamed');
  });
});

import { workerDatabase } from '@foodshare/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserEntity } from './entities/index.ts';
import { openOrm, requestEntityManager, type MikroORM } from './orm.ts';

let orm: MikroORM;
let userId: number;

beforeAll(async () => {
  const { url } = await workerDatabase('domain');
  orm = await openOrm({ url });
  const [row] = await orm.em.fork().execute<{ id: number }[]>(
    `insert into users (first_name, last_name, email, password_hash)
       values ('Request', 'Manager', 'request-manager@example.org', 'x') returning id`,
  );
  userId = row!.id;
});
afterAll(() => orm.close());

// The EntityManager each request works in (plugins/orm.ts): what orm.em.fork() gives, made
// without fork's writes to the shared configuration.
describe('requestEntityManager', () => {
  it('is set up as a fork of the root EntityManager is', () => {
    const fork = orm.em.fork();
    const em = requestEntityManager(orm);
    expect(em).toBeInstanceOf(fork.constructor);
    expect(em.getEventManager()).toBe(fork.getEventManager());
    expect(em.getDriver()).toBe(fork.getDriver());
    expect(em.isInTransaction()).toBe(false);
    expect(em.id).not.toBe(orm.em.id);
    expect(em.id).not.toBe(requestEntityManager(orm).id);
  });

  it('works where the root EntityManager refuses (no global context), with an identity map of its own', async () => {
    await expect(orm.em.findOne(UserEntity, userId)).rejects.toThrow(/global/i);
    const first = requestEntityManager(orm);
    const second = requestEntityManager(orm);
    const user = await first.findOneOrFail(UserEntity, userId);
    expect(first.getUnitOfWork().getById(UserEntity, userId)).toBe(user);
    expect(second.getUnitOfWork().getById(UserEntity, userId)).toBeUndefined();
    expect(await second.findOneOrFail(UserEntity, userId)).not.toBe(user);
  });

  it('runs transactions and flushes changes as a fork does', async () => {
    await requestEntityManager(orm).transactional(async (em) => {
      expect(em.isInTransaction()).toBe(true);
      const user = await em.findOneOrFail(UserEntity, userId);
      user.firstName = 'Renamed';
    });
    const reread = await requestEntityManager(orm).findOneOrFail(UserEntity, userId);
    expect(reread.firstName).toBe('Renamed');
  });
});

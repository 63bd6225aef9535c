import {
  createUser,
  openOrm,
  type EntityManager,
  type MikroORM,
  type Role,
} from '@foodshare/domain';
import { openKeyValueStore } from '@foodshare/server-kit';
import { workerDatabase, workerRedis } from '@foodshare/testing';
import { test as base } from 'vitest';

export interface TestOrm {
  readonly url: string;
  readonly orm: MikroORM;
  /** A fresh EntityManager, as each CLI run gets one. */
  em(): EntityManager;
}

export interface NewUser {
  role?: Role;
  homeRegionId?: number;
}

/**
 * The CLI test: `it('…', async ({ db, store }) => …)`, as in apps/api. Every fixture lives as
 * long as the test file and opens only when a test asks for it: one database copy and one Redis
 * prefix per file. `test.beforeAll` may use them too.
 */
export const test = base
  /** The name of the CLI's test databases and Redis prefixes (`cli`). */
  .extend('suite', { scope: 'file' }, 'cli')
  /** This file's migrated database. */
  .extend('db', { scope: 'file' }, async ({ suite }, { onCleanup }): Promise<TestOrm> => {
    const { url } = await workerDatabase(suite);
    const orm = await openOrm({ url, poolSize: 4 });
    onCleanup(() => orm.close());
    return { url, orm, em: () => orm.em.fork() };
  })
  /** The services' key-value store, on this file's own Redis prefix. */
  .extend('store', { scope: 'file' }, async ({ suite }, { onCleanup }) => {
    const redis = workerRedis(suite);
    const store = await openKeyValueStore({
      redis: { url: redis.url },
      keyPrefix: redis.keyPrefix,
    });
    onCleanup(() => store.close());
    return store;
  })
  /** Creates a user with a new address (`person<n>@example.org`) and the password `first-password`. */
  .extend('newUser', { scope: 'file' }, ({ db }) => {
    let counter = 0;
    return (change: NewUser = {}) => {
      counter += 1;
      return createUser(db.em(), {
        email: `person${counter}@example.org`,
        firstName: 'Person',
        lastName: String(counter),
        password: 'first-password',
        ...change,
      });
    };
  });

export const it = test;
export { describe, expect } from 'vitest';

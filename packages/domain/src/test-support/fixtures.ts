import { workerDatabase } from '@foodshare/testing';
import { test as base } from 'vitest';
import { openOrm, type MikroORM, type OrmConfig } from '../db/orm.ts';

/**
 * The domain test: `it('…', async ({ em }) => …)`, as apps/api's fixtures are. The ORM lives as
 * long as the test file (one copy of the domain database per file), so `test.beforeAll` may use
 * it too; `em` is a fork of its own for each test. A file that needs other ORM settings says
 * `test.override('ormConfig', { scope: 'file' }, { … })` first.
 */
export const test = base
  .extend('ormConfig', { scope: 'file' }, {} as Omit<OrmConfig, 'url'>)
  /** This file's own copy of the domain database, migrated, without rows. */
  .extend('databaseUrl', { scope: 'file' }, async () => (await workerDatabase('domain')).url)
  .extend(
    'orm',
    { scope: 'file' },
    async ({ databaseUrl, ormConfig }, { onCleanup }): Promise<MikroORM> => {
      const orm = await openOrm({ url: databaseUrl, ...ormConfig });
      onCleanup(() => orm.close());
      return orm;
    },
  )
  /** A fresh EntityManager for the test, as a request gets one. */
  .extend('em', ({ orm }) => orm.em.fork());

export const it = test;
export { describe, expect } from 'vitest';

import { openOrm, type EntityManager, type MikroORM } from '@foodshare/domain';
import { workerDatabase } from '@foodshare/testing';
import { afterAll, beforeAll } from 'vitest';

export interface TestOrm {
  readonly url: string;
  readonly orm: MikroORM;
  /** A fresh EntityManager, as each CLI run gets one. */
  em(): EntityManager;
}

/** A migrated database of this test file's own, opened before its tests and closed after. */
export function useTestOrm(): TestOrm {
  let url = '';
  let orm: MikroORM | undefined;
  beforeAll(async () => {
    ({ url } = await workerDatabase('cli'));
    orm = await openOrm({ url, poolSize: 4 });
  });
  afterAll(() => orm?.close());
  const opened = (): MikroORM => {
    if (!orm) throw new Error('useTestOrm: the database is opened in beforeAll');
    return orm;
  };
  return {
    get url() {
      return url;
    },
    get orm() {
      return opened();
    },
    em: () => opened().em.fork(),
  };
}

import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ensureSigningKey, migrateDatabase, openOrm } from '@foodshare/domain';
import { DEFAULT_REDIS_URL, runUntilExit, withDatabaseName } from '@foodshare/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onDatabaseServer, serverUrl } from '../start-process.ts';

// A second checkout on the same PostgreSQL: the shared database holds a signing key the first
// checkout encrypted with its own development key. `pnpm cluster` must say so in one line, with
// what to do, before it starts any instance; it fails while preparing, so nothing else runs.

describe('pnpm cluster on a database whose signing keys another checkout stored', () => {
  const name = `fs_test_cluster_foreign_${process.pid}`;
  const url = withDatabaseName(serverUrl, name);

  beforeAll(async () => {
    await onDatabaseServer(`CREATE DATABASE ${name}`);
    await migrateDatabase(url);
    const orm = await openOrm({ url, poolSize: 1 });
    try {
      // The other checkout's development key: 32 bytes this checkout has never seen.
      await ensureSigningKey(orm.em.fork(), randomBytes(32));
    } finally {
      await orm.close();
    }
  }, 60_000);

  afterAll(() => onDatabaseServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

  it('says in one line what to do, without a stack, and exits with 1', async () => {
    const exited = await runUntilExit(
      path.join(import.meta.dirname, '..', 'cluster.ts'),
      [],
      {
        DATABASE_URL: url,
        REDIS_URL: DEFAULT_REDIS_URL,
        REDIS_KEY_PREFIX: `${name}:`,
        PORT: '0',
        HOME: String(process.env.HOME),
      },
      45_000,
    );
    expect(exited.exitCode).toBe(1);
    expect(exited.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(
        /^\[cluster\] the signing keys in the database at .*fs_test_cluster_foreign_\d+ do not decrypt with this checkout's development key \(\.data\/dev-key-encryption-key\): .*set DATABASE_URL to a database of this checkout's own, or KEY_ENCRYPTION_KEY to the key they were stored with$/,
      ),
    ]);
    expect(exited.stdout).not.toMatch(/\n\s+at /);
  });
});

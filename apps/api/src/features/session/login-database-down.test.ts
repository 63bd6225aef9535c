import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createUser, migrateDatabase, openOrm } from '@foodshare/domain';
import {
  type EmbeddedPostgresHandle,
  freePort,
  startEmbeddedPostgres,
  testServiceEnv,
} from '@foodshare/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiApp, buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';

const PASSWORD = 'correct horse battery staple';

/**
 * A login that fails because PostgreSQL is unreachable is nobody's mistake: it answers 503
 * and counts against neither the account nor the address. The test stops a PostgreSQL of
 * its own (never the shared one).
 */
describe('POST /api/login while the database is down', () => {
  let dataDir: string;
  let port: number;
  let postgres: EmbeddedPostgresHandle | undefined;
  let app: ApiApp;

  const start = async () => {
    postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'cluster'), port });
    return postgres.url;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'fs-login-down-'));
    port = await freePort();
    const url = await start();
    await migrateDatabase(url);
    const orm = await openOrm({ url, poolSize: 1 });
    try {
      for (const email of ['alice@example.org', 'bob@example.org']) {
        await createUser(orm.em.fork(), {
          firstName: 'A',
          lastName: 'B',
          email,
          password: PASSWORD,
        });
      }
    } finally {
      await orm.close();
    }
    const { env } = await testServiceEnv('api');
    app = await buildApp(
      loadConfig({
        ...env,
        DATABASE_URL: url,
        LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP: '2',
        LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
        LOGIN_MAX_FAILURES_PER_IP: '3',
      }),
    );
    await app.ready();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await postgres?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  const login = (email: string) =>
    app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password: PASSWORD },
      remoteAddress: '10.70.0.1',
    });

  it('answers 503, not 401, and locks nobody out once the database is back', async () => {
    await postgres?.stop();
    postgres = undefined;
    for (let i = 0; i < 6; i++) {
      const refused = await login('alice@example.org');
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.json()).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
      expect(refused.body).not.toMatch(/ECONNREFUSED|postgres|connect/i);
    }

    await start();
    expect((await login('alice@example.org')).statusCode).toBe(200);
    // The address is not held responsible either.
    expect((await login('bob@example.org')).statusCode).toBe(200);
  }, 120_000);
});

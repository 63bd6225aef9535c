import { openOrm, type EntityManager, type MikroORM } from '@foodshare/domain';
import { DEFAULT_DATABASE_URL } from '@foodshare/testing';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ormPlugin } from './orm.ts';

let orm: MikroORM;

// Forking reads no table: the server's own database will do.
beforeAll(async () => {
  orm = await openOrm({ url: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL });
});
afterAll(() => orm.close());

/** An app on the shared ORM whose route reads `request.em` twice and says what it got. */
async function appRecordingForks() {
  const app = Fastify();
  await app.register(ormPlugin, {
    databaseUrl: 'unused: the ORM is given',
    timeouts: { connectMs: 1_000, statementMs: 1_000 },
    pooling: { poolSize: 1, preparedStatements: true },
    orm,
  });
  const forks: EntityManager[] = [];
  app.get('/fork', async (request) => {
    const first = request.em;
    forks.push(first);
    // A turn of the event loop between the two reads, as a handler's awaits make.
    await new Promise((resolve) => setImmediate(resolve));
    return { same: request.em === first };
  });
  return { app, forks };
}

describe('ormPlugin: request.em', () => {
  it('is one fork per request, the same each time the request asks, never shared or the root', async () => {
    const { app, forks } = await appRecordingForks();
    const answers = await Promise.all([
      app.inject({ method: 'GET', url: '/fork' }),
      app.inject({ method: 'GET', url: '/fork' }),
    ]);
    expect(answers.map((answer) => answer.json<{ same: boolean }>())).toEqual([
      { same: true },
      { same: true },
    ]);
    expect(forks).toHaveLength(2);
    expect(forks[0]).not.toBe(forks[1]);
    for (const fork of forks) expect(fork).not.toBe(orm.em);
    await app.close();
  });
});

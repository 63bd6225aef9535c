// `pnpm test`: lint, typecheck and every test, against real PostgreSQL and Redis.
// Uses the servers at DATABASE_URL and REDIS_URL (defaults 127.0.0.1:5432 and :6379);
// starts an embedded PostgreSQL when none answers; installs the Debian programs some tests
// drive where it may (scripts/test-prerequisites.ts); says in one line what is missing.
import { spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import path from 'node:path';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, startEmbeddedPostgres } from '@foodshare/testing';
import pg from 'pg';
import { ensurePrerequisites } from './test-prerequisites.ts';

const root = path.resolve(import.meta.dirname, '..');

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(3_000);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const missingPrograms = ensurePrerequisites();
if (missingPrograms) {
  console.error(missingPrograms);
  process.exit(1);
}

let databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
let stopEmbedded: (() => Promise<void>) | undefined;
if (!(await postgresAnswers(databaseUrl))) {
  try {
    const embedded = await startEmbeddedPostgres({
      dataDir: path.join(root, '.data', 'test-postgres'),
      port: Number(process.env.EMBEDDED_POSTGRES_TEST_PORT ?? 54321),
    });
    console.log(`[test] no PostgreSQL at ${databaseUrl}: using an embedded one`);
    databaseUrl = embedded.url;
    stopEmbedded = () => embedded.stop();
  } catch (error) {
    console.error(
      `[test] PostgreSQL is missing: nothing answers at ${databaseUrl} and the embedded one did not start (${String(error)}).`,
    );
    process.exit(1);
  }
}

const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
if (!(await redisAnswers(redisUrl))) {
  console.error(
    `[test] Redis is missing: nothing answers at ${redisUrl}; start redis-server or set REDIS_URL.`,
  );
  await stopEmbedded?.();
  process.exit(1);
}

const turbo = spawnSync(
  'pnpm',
  [
    'exec',
    'turbo',
    'run',
    'lint',
    'lint:root',
    'typecheck',
    'typecheck:root',
    'test',
    'test:root',
    ...process.argv.slice(2).filter((arg) => arg !== '--'),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      TURBO_TELEMETRY_DISABLED: '1',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    },
  },
);
await stopEmbedded?.();
process.exit(turbo.status ?? 1);

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  sanitizeIdentifier,
  withDatabaseName,
} from './database-urls.ts';

// Each test worker gets its own database cloned from a template that was migrated once
// per test run, so tests touch real PostgreSQL without seeing each other's rows.
//
// Every name carries the id of the vitest run that made it, so that two runs of the same suite
// at once (two terminals, turbo and an editor, two CI jobs on one server) never drop or clone
// each other's databases.

/**
 * Set in vitest's main process by setupTemplateDatabase (globalSetup); the worker processes
 * vitest forks afterwards inherit it with the rest of the environment.
 */
const RUN_ENV = 'FOODSHARE_TEST_RUN';

// PostgreSQL cuts identifiers at 63 bytes, and sanitizeIdentifier at 60 characters. Capping
// the parts keeps the run id and the role at the end of every name, where a cut would make two
// names collide: 8 (fs_test_) + 24 + 1 + 16 + 1 + 9 (w + 8 digits, or template) = 59.
const SUITE_MAX = 24;
const RUN_ID = /^[a-z0-9]{1,16}$/;
const WORKER_ID = /^[0-9]{1,8}$/;

function serverUrl(): string {
  return process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

function newRunId(): string {
  // The pid tells runs on one machine apart at a glance; the random part covers pid reuse and
  // runs on other machines sharing the server.
  return `${process.pid.toString(36)}${randomBytes(3).toString('hex')}`;
}

function currentRunId(): string {
  const run = process.env[RUN_ENV];
  if (!run) {
    throw new Error(
      `${RUN_ENV} is not set: add a globalSetup that calls setupTemplateDatabase() to this suite's vitest config`,
    );
  }
  if (!RUN_ID.test(run)) throw new Error(`${RUN_ENV} must match ${RUN_ID}, got "${run}"`);
  return run;
}

/** `fs_test_<suite>_<run>_`: every database of one suite in one run starts with it. */
function runPrefix(suite: string, run: string): string {
  return sanitizeIdentifier(`fs_test_${sanitizeIdentifier(suite).slice(0, SUITE_MAX)}_${run}_`);
}

function templateName(suite: string, run: string): string {
  return sanitizeIdentifier(`${runPrefix(suite, run)}template`);
}

function workerId(): string {
  const worker = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? '0';
  if (!WORKER_ID.test(worker)) throw new Error(`unexpected vitest worker id "${worker}"`);
  return worker;
}

async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function dropRunDatabases(suite: string, run: string): Promise<void> {
  await withAdminClient(async (client) => {
    // starts_with, not LIKE: `_` in the prefix would be a LIKE wildcard.
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [runPrefix(suite, run)],
    );
    for (const { datname } of rows) {
      await client.query(
        `DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`,
      );
    }
  });
}

/**
 * vitest globalSetup: creates this run's template database for the suite and migrates it.
 * Returns the teardown vitest calls at the end of the run, which drops the template and every
 * worker database of the run.
 */
export async function setupTemplateDatabase(options: {
  /** The test suite, usually the package name: `api`, `domain`. */
  name: string;
  migrate: (url: string) => Promise<void>;
}): Promise<() => Promise<void>> {
  const run = newRunId();
  process.env[RUN_ENV] = run;
  const template = templateName(options.name, run);
  const teardown = () => dropRunDatabases(options.name, run);
  try {
    await withAdminClient((client) => client.query(`CREATE DATABASE ${template}`));
    await options.migrate(withDatabaseName(serverUrl(), template));
  } catch (error) {
    // vitest gets no teardown from a globalSetup that throws.
    await teardown().catch(() => undefined);
    throw error;
  }
  return teardown;
}

export interface WorkerDatabase {
  url: string;
  name: string;
}

/**
 * A fresh copy of the suite's migrated template for the calling test file. Files run one
 * after another inside a worker, so the name is per worker and the copy is replaced.
 */
export async function workerDatabase(suite: string): Promise<WorkerDatabase> {
  const run = currentRunId();
  const name = sanitizeIdentifier(`${runPrefix(suite, run)}w${workerId()}`);
  await withAdminClient(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${templateName(suite, run)}`);
  });
  return { name, url: withDatabaseName(serverUrl(), name) };
}

export interface WorkerRedis {
  url: string;
  /** Prefix under which this test file's keys live; nothing else uses it. */
  keyPrefix: string;
}

export function workerRedis(suite: string): WorkerRedis {
  const worker = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? '0';
  const unique = Math.random().toString(36).slice(2, 10);
  return {
    url: process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
    keyPrefix: `test:${suite}:w${worker}:${unique}:`,
  };
}

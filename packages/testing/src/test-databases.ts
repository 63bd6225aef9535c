import pg from 'pg';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  sanitizeIdentifier,
  withDatabaseName,
} from './database-urls.ts';

// Each test worker gets its own database cloned from a template that was migrated once
// per test run, so tests touch real PostgreSQL without seeing each other's rows.

function serverUrl(): string {
  return process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

function templateName(suite: string): string {
  return sanitizeIdentifier(`fs_test_${suite}_template`);
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

/**
 * vitest globalSetup: (re)creates the suite's template database and migrates it.
 * Returns the teardown vitest calls at the end of the run.
 */
export async function setupTemplateDatabase(options: {
  /** The test suite, usually the package name: `api`, `domain`. */
  name: string;
  migrate: (url: string) => Promise<void>;
}): Promise<() => Promise<void>> {
  const template = templateName(options.name);
  await withAdminClient(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${template}`);
  });
  await options.migrate(withDatabaseName(serverUrl(), template));
  return async () => {
    await withAdminClient((client) =>
      client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`),
    );
  };
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
  const worker = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? '0';
  const name = sanitizeIdentifier(`fs_test_${suite}_w${worker}`);
  await withAdminClient(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${templateName(suite)}`);
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

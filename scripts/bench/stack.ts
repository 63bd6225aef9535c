// The processes `pnpm bench` measures: the real stack as `pnpm start` runs it (both services
// behind one loopback origin, in a child process), the reference server and the bench peer
// (node-oidc-provider), each another child.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { developmentKeyEncryptionKey } from '@foodshare/domain';
import { connectProfiler, INSPECTOR_LINE, type Profiler } from './profiler.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface Child {
  origin: string;
  /** The first line the child printed that matched (for the reference server: its JSON). */
  line: string;
  /**
   * CPU time the child has used so far (user and system), in microseconds, or null where the
   * kernel does not say (no /proc). Divided by the requests of a scenario it is what a request
   * costs the server, whatever else the machine is doing.
   */
  cpuMicros(): number | null;
  stop(): Promise<void>;
  /** The child's CPU profiler, when it was started for profiling. */
  profiler?: Profiler;
}

/** Linux's clock ticks per second, which /proc/<pid>/stat counts in (USER_HZ). */
const CLOCK_TICKS_PER_SECOND = 100;

function cpuMicrosOf(child: ChildProcess): () => number | null {
  return () => {
    try {
      // The fields after the command name (which may hold spaces), from `state` on: utime and
      // stime are fields 14 and 15 of proc(5), the 12th and 13th here.
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      return Number.isFinite(ticks) ? (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND : null;
    } catch {
      return null;
    }
  };
}

/**
 * Spawns a Node child and waits (bounded) for the line that says it is listening. The child's
 * other output is passed through, prefixed, so that warnings and crashes stay visible.
 */
function spawnNode(
  label: string,
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  timeoutMs: number,
  /** Sees each stderr line first; true keeps it from being passed through. */
  watchStderr?: (text: string) => boolean,
): Promise<{ child: ChildProcess; match: RegExpExecArray; line: string }> {
  const child = spawn(process.execPath, ['--conditions=development', ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`${label} did not start within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${code} before it was ready`));
    });
    // Not started at all (a working directory that does not exist).
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${label} did not start in ${cwd}: ${error.message}`));
    });
    createInterface({ input: child.stderr }).on('line', (text) => {
      if (!watchStderr?.(text)) console.error(`[${label}] ${text}`);
    });
    createInterface({ input: child.stdout }).on('line', (text) => {
      const match = ready.exec(text);
      if (match) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ child, match, line: text });
      } else if (!text.startsWith('[start]')) {
        console.error(`[${label}] ${text}`);
      }
    });
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

export interface StackOptions {
  databaseUrl: string;
  redisUrl: string;
  keyPrefix: string;
  /** Start the stack with its inspector on loopback, for CPU profiles of single scenarios. */
  profile?: boolean;
  /**
   * Another checkout of the project to run the stack of (its dependencies installed), for
   * `--against`; this one when absent. It is given this checkout's key-encryption key, so that
   * both decrypt the signing keys stored in the shared bench database.
   */
  checkout?: string;
}

/** A port free right now: the stack's issuer must name it before the stack listens. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** `pnpm start` on a free loopback port, on the given database (demo data loaded if empty). */
export async function startStack(options: StackOptions): Promise<Child> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // Port 0: the inspector picks a free loopback port and says which on stderr.
  const profile = options.profile ? ['--inspect=127.0.0.1:0'] : [];
  let inspector: string | undefined;
  const other = options.checkout !== undefined && path.resolve(options.checkout) !== root;
  const { child, line } = await spawnNode(
    other ? 'against' : 'stack',
    other ? path.resolve(options.checkout!) : root,
    [...profile, 'scripts/start.ts'],
    {
      ...(other && !process.env.KEY_ENCRYPTION_KEY
        ? { KEY_ENCRYPTION_KEY: Buffer.from(developmentKeyEncryptionKey().key).toString('hex') }
        : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: origin,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      REDIS_KEY_PREFIX: options.keyPrefix,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      // The bench logs in and asks for tokens far more often than a person or a client would.
      LOGIN_MAX_FAILURES_PER_IP: '1000000',
      // Authorize and the login page are limited per address; every bench request comes
      // from 127.0.0.1.
      INTERACTION_REQUESTS_PER_IP_PER_MINUTE: '100000000',
      TOKEN_REQUESTS_PER_CLIENT_PER_MINUTE: '100000000',
      TOKEN_REQUESTS_PER_PUBLIC_CLIENT_AND_IP_PER_MINUTE: '100000000',
      // Counts secret checks in flight too: 16 parallel exchanges would hit a small limit.
      TOKEN_CLIENT_AUTH_FAILURES_PER_CLIENT_AND_IP_PER_MINUTE: '100000000',
    },
    /listening on /,
    120_000,
    (text) => {
      inspector ??= INSPECTOR_LINE.exec(text)?.[1];
      return /^(Debugger listening on|Debugger attached|For help, see)/.test(text);
    },
  );
  const stop = stopper(child);
  if (!options.profile) return { origin, line, cpuMicros: cpuMicrosOf(child), stop };
  if (!inspector) {
    await stop();
    throw new Error('the stack did not say where its inspector listens');
  }
  const profiler = await connectProfiler(inspector);
  return {
    origin,
    line,
    cpuMicros: cpuMicrosOf(child),
    profiler,
    stop: async () => {
      profiler.close();
      await stop();
    },
  };
}

/**
 * A server of this directory (`<name>-server.ts`) as a child on the bench's database and Redis,
 * its keys under `<keyPrefix><name>:`; ready once it prints its JSON line, `{"port": ...}`.
 */
async function startServerScript(name: 'reference' | 'peer', options: StackOptions) {
  const { child, line } = await spawnNode(
    name,
    root,
    [`scripts/bench/${name}-server.ts`],
    {
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      REDIS_KEY_PREFIX: `${options.keyPrefix}${name}:`,
    },
    /^\{"port":/,
    60_000,
  );
  // The reference server prints a bearer token beside its port.
  const printed = JSON.parse(line) as { port: number; token?: string };
  const server: Child = {
    origin: `http://127.0.0.1:${printed.port}`,
    line,
    cpuMicros: cpuMicrosOf(child),
    stop: stopper(child),
  };
  return { server, printed };
}

export async function startReference(options: StackOptions): Promise<Child & { token: string }> {
  const { server, printed } = await startServerScript('reference', options);
  if (printed.token === undefined) throw new Error('the reference server printed no token');
  return { ...server, token: printed.token };
}

/** The bench peer (peer-server.ts), node-oidc-provider on the same database and Redis. */
export async function startPeer(options: StackOptions): Promise<Child> {
  return (await startServerScript('peer', options)).server;
}

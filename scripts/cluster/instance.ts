import path from 'node:path';
import { freePort, waitFor } from '@foodshare/testing';
import { type ClusterProcess, startProcess } from './child-process.ts';

const root = path.resolve(import.meta.dirname, '../..');

export type Service = 'api' | 'auth';

/** One process of a service, exactly as a deployment runs it (apps/<service>/src/server.ts). */
export interface Instance extends ClusterProcess {
  readonly service: Service;
  readonly port: number;
  /** `http://127.0.0.1:<port>`: the instance itself, past the proxy. */
  readonly origin: string;
}

/** Ready: listening, and its PostgreSQL and Redis answer (what the proxy checks too). */
export async function isReady(origin: string): Promise<boolean> {
  const response = await fetch(`${origin}/health/ready`, { signal: AbortSignal.timeout(2_000) });
  await response.body?.cancel();
  return response.status === 200;
}

/**
 * Starts instance `name` of `service` on a port of its own (the kernel's pick) on loopback,
 * and waits, at most `readyTimeoutMs`, until it is ready. `env` is the whole environment of
 * the process, minus HOST and PORT.
 */
export async function startInstance(
  service: Service,
  name: string,
  options: {
    env: Record<string, string | undefined>;
    log: (line: string) => void;
    readyTimeoutMs?: number;
    /** The checkout whose code runs: this one, or another release's (scripts/release). */
    root?: string;
    /** The port to listen on, as a replaced instance's successor does; default a free one. */
    port?: number;
  },
): Promise<Instance> {
  const checkout = options.root ?? root;
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const child = startProcess(
    name,
    process.execPath,
    ['--conditions=development', path.join(checkout, 'apps', service, 'src', 'server.ts')],
    {
      env: { ...options.env, HOST: '127.0.0.1', PORT: String(port) },
      cwd: checkout,
      log: options.log,
    },
  );
  const instance: Instance = Object.assign(child, { service, port, origin });
  const ended = child.exited.then((code) => {
    throw new Error(`${name} exited (${code}) before it was ready`);
  });
  try {
    await Promise.race([
      waitFor(`${name} ready at ${origin}`, () => isReady(origin), options.readyTimeoutMs),
      ended,
    ]);
  } catch (error) {
    await child.stop('SIGKILL');
    throw error;
  }
  ended.catch(() => undefined);
  return instance;
}

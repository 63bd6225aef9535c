import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from '@foodshare/testing';
import { type ClusterProcess, startProcess } from './child-process.ts';
import type { Instance } from './instance.ts';

/** The proxy's configuration, with the routes of docker/Caddyfile. */
export const CADDYFILE = path.join(import.meta.dirname, 'Caddyfile');

export interface Proxy extends ClusterProcess {
  /** The one public origin as reached on loopback: `http://127.0.0.1:<port>`. */
  readonly origin: string;
}

const upstreams = (instances: Instance[]) =>
  instances.map((instance) => `127.0.0.1:${instance.port}`).join(' ');

/**
 * Caddy (Debian's `caddy` package) in front of the instances, on `host:port`. Its state
 * folders are a scratch folder, removed when it stops: the proxy keeps nothing.
 */
export async function startProxy(options: {
  host: string;
  port: number;
  api: Instance[];
  auth: Instance[];
  log: (line: string) => void;
  readyTimeoutMs?: number;
}): Promise<Proxy> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'foodshare-cluster-proxy-'));
  const child = startProcess(
    'proxy',
    'caddy',
    ['run', '--adapter', 'caddyfile', '--config', CADDYFILE],
    {
      env: {
        PATH: process.env.PATH,
        HOME: scratch,
        XDG_DATA_HOME: scratch,
        XDG_CONFIG_HOME: scratch,
        CLUSTER_HOST: options.host,
        CLUSTER_PORT: String(options.port),
        CLUSTER_API_UPSTREAMS: upstreams(options.api),
        CLUSTER_AUTH_UPSTREAMS: upstreams(options.auth),
      },
      log: options.log,
      afterExit: () => rm(scratch, { recursive: true, force: true }),
    },
  );
  const address = options.host.includes(':') ? `[${options.host}]` : options.host;
  const origin = `http://${address === '0.0.0.0' ? '127.0.0.1' : address}:${options.port}`;
  const ended = child.exited.then((code) => {
    throw new Error(`the proxy exited (${code}) before it answered; is caddy installed?`);
  });
  // Both routes reach a service: discovery (auth) and an anonymous api call (401).
  const routesAnswer = async () => {
    const [auth, api] = await Promise.all(
      ['/.well-known/openid-configuration', '/api/users/current'].map((route) =>
        fetch(`${origin}${route}`, { signal: AbortSignal.timeout(2_000) }),
      ),
    );
    await Promise.all([auth?.body?.cancel(), api?.body?.cancel()]);
    return auth?.status === 200 && api?.status === 401;
  };
  try {
    await Promise.race([
      waitFor('the proxy answering', routesAnswer, options.readyTimeoutMs),
      ended,
    ]);
  } catch (error) {
    await child.stop('SIGKILL');
    throw error;
  }
  return Object.assign(child, { origin });
}

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { login } from '../bench/sessions.ts';
import { startInstance } from './instance.ts';
import type { Cluster } from './start-cluster.ts';
import { type Sent, steadyLoad } from './steady-load.ts';

const run = promisify(execFile);

/**
 * How long the proxy may still leave a replaced instance's port out once its successor is
 * ready: a request refused while the port was closed benches it for `fail_duration` (10 s,
 * scripts/cluster/Caddyfile), and the health check runs every second. The next instance is
 * stopped only after that, or both of a service's ports could be left out at once.
 */
const ROUTED_AGAIN_MS = 12_000;

export interface RollOutcome {
  /** The instances replaced, in order. */
  rolled: string[];
  seconds: number;
  /** Every request of the steady load that ran meanwhile. */
  requests: number;
  /** Those answered other than 200, or not at all. */
  failed: Sent[];
}

/**
 * A rolling update of a running cluster to the code of the checkout at `root`, as
 * docs/operations.md §1 orders it: that checkout's migrations first (expand), then the auth
 * instances one by one, then the api instances. Each is stopped gracefully (it finishes what
 * it holds while the proxy sends new requests to the others) and its successor starts on the
 * same port. A steady load of reads, a session's and a client's, runs throughout.
 */
export async function rollCluster(
  cluster: Cluster,
  options: {
    root: string;
    env: Record<string, string | undefined>;
    log: (line: string) => void;
    readyTimeoutMs?: number;
  },
): Promise<RollOutcome> {
  const env = { ...options.env, BASE_URL: cluster.baseUrl };
  options.log(`[cluster] migrating with ${options.root}`);
  await run(
    process.execPath,
    [
      '--conditions=development',
      path.join(options.root, 'apps', 'cli', 'src', 'main.ts'),
      'db',
      'migrate',
    ],
    { cwd: options.root, env, timeout: 180_000 },
  );

  const session = await login(cluster.origin, 'alice');
  const loads = [
    steadyLoad(`${cluster.origin}/api/users/current`, {
      headers: { cookie: session.cookie },
      concurrency: 4,
    }),
    steadyLoad(`${cluster.origin}/.well-known/openid-configuration`, {
      headers: {},
      concurrency: 4,
    }),
  ];
  const startedAt = Date.now();
  const rolled: string[] = [];
  let failure: Error | undefined;
  try {
    for (const service of ['auth', 'api'] as const) {
      const list = cluster.instances[service];
      for (const [index, old] of list.entries()) {
        options.log(`[cluster] rolling ${old.name}`);
        await old.stop();
        list[index] = await startInstance(service, old.name, {
          env,
          log: options.log,
          root: options.root,
          port: old.port,
          readyTimeoutMs: options.readyTimeoutMs ?? 60_000,
        });
        await new Promise((resolve) => setTimeout(resolve, ROUTED_AGAIN_MS));
        rolled.push(old.name);
      }
    }
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
  }
  const sent = (await Promise.all(loads.map((load) => load.stop()))).flat();
  const failed = sent.filter((request) => request.outcome !== 200);
  const seconds = (Date.now() - startedAt) / 1000;
  options.log(
    `[cluster] rolled ${rolled.length} instances to ${options.root} in ${seconds.toFixed(1)} s under a steady load: ${sent.length} requests, ${failed.length} failed`,
  );
  for (const request of failed.slice(0, 5)) {
    options.log(`[cluster] failed: ${String(request.outcome)} ${request.body ?? ''}`);
  }
  if (failure) throw failure;
  return { rolled, seconds, requests: sent.length, failed };
}

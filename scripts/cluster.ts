// Several instances of each service, each run as a deployment runs it, behind a real reverse
// proxy (Caddy) on one origin: what docs/deploy.md §2 promises, on one machine.
//
//   pnpm cluster                     http://localhost:8080, 2 api and 2 auth instances
//   pnpm cluster --instances 3       (or CLUSTER_INSTANCES=3) instances of each service
//   pnpm cluster --roll ../next      then a rolling update to the checkout ../next under a
//                                    steady load, printing what failed (scripts/cluster/roll.ts)
//
// Uses the PostgreSQL at DATABASE_URL (default: database `foodshare` of the local server,
// created when missing, migrated, and given the demo data when empty) and the Redis at
// REDIS_URL (default the local one). Needs `caddy` on the PATH (Debian: apt-get install caddy).
// Ctrl-C or SIGTERM stops the proxy, then every instance gracefully, and exits with 0.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, startupFailureLine } from '@foodshare/server-kit';
import { DEFAULT_REDIS_URL, withDatabaseName, DEFAULT_DATABASE_URL } from '@foodshare/testing';
import { parseIntegerOption } from './integer-option.ts';
import { runningProcesses } from './cluster/child-process.ts';
import { rollCluster } from './cluster/roll.ts';
import { type Cluster, startCluster } from './cluster/start-cluster.ts';

const log = (line: string) => console.log(line);
const MAX_INSTANCES = 16;

function fail(problem: string): never {
  console.error(`[cluster] ${problem}`);
  process.exit(1);
}

function option(name: string, raw: string, min: number, max: number): number {
  const parsed = parseIntegerOption(name, raw, min, max);
  return 'value' in parsed ? parsed.value : fail(parsed.problem);
}

// `--instances 3` or `--instances=3`, `--roll DIR`; anything else is refused with parseArgs'
// message.
function commandArguments(): { instances?: string; roll?: string } {
  try {
    return parseArgs({ options: { instances: { type: 'string' }, roll: { type: 'string' } } })
      .values;
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}
const args = commandArguments();
const rollTo = args.roll === undefined ? undefined : path.resolve(args.roll);
if (rollTo !== undefined && !existsSync(path.join(rollTo, 'apps', 'api', 'src', 'server.ts'))) {
  fail(`--roll ${args.roll}: not a checkout of this project (no apps/api/src/server.ts)`);
}

const count = option(
  'CLUSTER_INSTANCES',
  args.instances ?? process.env.CLUSTER_INSTANCES ?? '2',
  1,
  MAX_INSTANCES,
);
const port = option('PORT', process.env.PORT ?? '8080', 0, 65535);

// Set by the first SIGINT or SIGTERM. The children run in process groups of their own, so a
// Ctrl-C reaches only this process, which stops them: the proxy first, then the instances.
let stopping = false;
let cluster: Cluster | undefined;

async function shutDown(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  log(`[cluster] stopping (${signal})`);
  // Still starting: stop whatever runs already, in no particular order.
  const clean = cluster
    ? await cluster.stop()
    : (await Promise.all(runningProcesses().map((child) => child.stop()))).every((c) => c === 0);
  log(`[cluster] stopped${clean ? '' : ': a process did not exit cleanly'}`);
  process.exit(0);
}
process.on('SIGINT', (signal) => void shutDown(signal));
process.on('SIGTERM', (signal) => void shutDown(signal));
// The last resort when this process ends without stopping them (a crash): no orphans.
process.on('exit', () => {
  for (const child of runningProcesses()) child.child.kill('SIGKILL');
});

const env = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL ?? withDatabaseName(DEFAULT_DATABASE_URL, 'foodshare'),
  REDIS_URL: process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
};
try {
  cluster = await startCluster({
    instances: { api: count, auth: count },
    host: process.env.HOST ?? '127.0.0.1',
    port,
    env,
    log,
  });
} catch (error) {
  // A stop asked for during the start makes the start fail; shutDown reports and exits.
  if (stopping) await new Promise(() => undefined);
  // A known cause (a database that is not this checkout's, ...) in one line that says what to do.
  fail(
    error instanceof ConfigError ? error.message : (startupFailureLine(error, {}) ?? String(error)),
  );
}
const running = cluster;

const listed = (['api', 'auth'] as const)
  .flatMap((service) => running.instances[service])
  .map((instance) => `${instance.name} ${instance.origin}`)
  .join(', ');
log(`[cluster] listening on ${running.baseUrl} (proxy ${running.origin}; ${listed})`);
if (stopping) await running.stop().then(() => process.exit(0));

// An instance that ends on its own is routed around by the proxy; without the proxy nothing
// is reachable, so the cluster stops.
const watched = new Set<object>();
const watchInstances = () => {
  for (const child of [...running.instances.api, ...running.instances.auth]) {
    if (watched.has(child)) continue;
    watched.add(child);
    void child.exited.then((code) => {
      const current = [...running.instances.api, ...running.instances.auth].includes(child);
      if (!stopping && current) {
        log(`[cluster] ${child.name} exited (${code}); the proxy routes around it`);
      }
    });
  }
};
watchInstances();
void running.proxy.exited.then(async (code) => {
  if (stopping) return;
  stopping = true;
  log(`[cluster] the proxy exited (${code}); stopping the cluster`);
  await running.stop();
  process.exit(1);
});

if (rollTo !== undefined) {
  try {
    await rollCluster(running, { root: rollTo, env, log });
    watchInstances();
  } catch (error) {
    log(
      `[cluster] the rolling update stopped: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

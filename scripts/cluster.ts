// Several instances of each service, each run as a deployment runs it, behind a real reverse
// proxy (Caddy) on one origin: what the README's "Scaling out" promises, on one machine.
//
//   pnpm cluster                     http://localhost:8080, 2 api and 2 auth instances
//   pnpm cluster --instances 3       (or CLUSTER_INSTANCES=3) instances of each service
//
// Uses the PostgreSQL at DATABASE_URL (default: database `foodshare` of the local server,
// created when missing, migrated, and given the demo data when empty) and the Redis at
// REDIS_URL (default the local one). Needs `caddy` on the PATH (Debian: apt-get install caddy).
// Ctrl-C or SIGTERM stops the proxy, then every instance gracefully, and exits with 0.
import { parseArgs } from 'node:util';
import { ConfigError, startupFailureLine } from '@foodshare/server-kit';
import { DEFAULT_REDIS_URL, withDatabaseName, DEFAULT_DATABASE_URL } from '@foodshare/testing';
import { parseIntegerOption } from './integer-option.ts';
import { runningProcesses } from './cluster/child-process.ts';
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

// `--instances 3` or `--instances=3`; anything else is refused with parseArgs' message.
function instancesArgument(): string | undefined {
  try {
    return parseArgs({ options: { instances: { type: 'string' } } }).values.instances;
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}

const count = option(
  'CLUSTER_INSTANCES',
  instancesArgument() ?? process.env.CLUSTER_INSTANCES ?? '2',
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

try {
  cluster = await startCluster({
    instances: { api: count, auth: count },
    host: process.env.HOST ?? '127.0.0.1',
    port,
    env: {
      ...process.env,
      DATABASE_URL: process.env.DATABASE_URL ?? withDatabaseName(DEFAULT_DATABASE_URL, 'foodshare'),
      REDIS_URL: process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
    },
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
for (const child of [...running.instances.api, ...running.instances.auth]) {
  void child.exited.then((code) => {
    if (!stopping) log(`[cluster] ${child.name} exited (${code}); the proxy routes around it`);
  });
}
void running.proxy.exited.then(async (code) => {
  if (stopping) return;
  stopping = true;
  log(`[cluster] the proxy exited (${code}); stopping the cluster`);
  await running.stop();
  process.exit(1);
});

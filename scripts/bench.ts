// `pnpm bench`: request throughput of the session hot path, as ratios to a baseline
// measured in the same run (/health/live: routing, hooks and serialisation, no I/O).
// Loopback only; each run is bounded in time. Figures, not a pass/fail.
//
//   DATABASE_URL  server to create the `fs_bench` database on (default 127.0.0.1:5432)
//   REDIS_URL     Redis for sessions (default 127.0.0.1:6379)
//   BENCH_SECONDS seconds per scenario (default 5)
import { buildApp } from '@foodshare/api/app';
import { loadConfig } from '@foodshare/api/config';
import { DEMO_PASSWORD, loadDemoData, migrateDatabase, openOrm } from '@foodshare/domain';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, withDatabaseName } from '@foodshare/testing';
import autocannon from 'autocannon';
import pg from 'pg';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const serverUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const databaseUrl = withDatabaseName(serverUrl, 'fs_bench');

async function freshDatabase(): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query('DROP DATABASE IF EXISTS fs_bench WITH (FORCE)');
  await client.query('CREATE DATABASE fs_bench');
  await client.end();
  await migrateDatabase(databaseUrl);
  const orm = await openOrm({ url: databaseUrl });
  await loadDemoData(orm.em.fork());
  await orm.close();
}

interface Figures {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(
  name: string,
  url: string,
  options: Partial<autocannon.Options> = {},
): Promise<Figures> {
  const result = await autocannon({ url, connections: 10, duration: seconds, ...options });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

await freshDatabase();
const app = await buildApp(
  loadConfig({
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
    REDIS_KEY_PREFIX: `bench:${process.pid}:`,
    LOG_LEVEL: 'warn',
    // The bench logs in more often than a person would.
    LOGIN_MAX_FAILURES_PER_IP: '1000000',
  }),
);
const origin = await app.listen({ host: '127.0.0.1', port: 0 });

const login = await fetch(`${origin}/api/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'alice@example.org', password: DEMO_PASSWORD }),
});
const cookie = login.headers
  .getSetCookie()
  .map((value) => value.split(';')[0])
  .join('; ');

const results = [
  await measure('GET /health/live (baseline)', `${origin}/health/live`),
  await measure('GET /api/users/current', `${origin}/api/users/current`, { headers: { cookie } }),
  await measure('GET /health/ready (PostgreSQL + Redis)', `${origin}/health/ready`),
  await measure('POST /api/login (argon2id)', `${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'alice@example.org', password: DEMO_PASSWORD }),
    connections: 2,
  }),
];
// autocannon stops waiting at the deadline; let the server finish what it still holds.
await new Promise((resolve) => setTimeout(resolve, 500));
await app.close();

const baseline = results[0]?.requestsPerSecond ?? 1;
console.log(`\n${seconds} s per scenario, 10 connections (login: 2), one process, loopback\n`);
console.log(
  [
    'scenario'.padEnd(42),
    'req/s'.padStart(9),
    'vs base'.padStart(8),
    'p50 ms',
    'p99 ms',
    'errors',
  ].join(' '),
);
for (const r of results) {
  console.log(
    [
      r.name.padEnd(42),
      r.requestsPerSecond.toFixed(0).padStart(9),
      (r.requestsPerSecond / baseline).toFixed(2).padStart(8),
      String(r.p50).padStart(6),
      String(r.p99).padStart(6),
      String(r.errors).padStart(6),
    ].join(' '),
  );
}

// `pnpm bench:queries`: how many SQL statements each endpoint of docs/spec.md §4.1 sends for
// one request, on the demo data and again after the tables they read have grown. A count that
// grows with the data is an N+1; the budget is "a few" whatever the size (issue #3,
// docs/design.md §3.11).
//
//   DATABASE_URL  server to create the `fs_bench_queries` database on (default 127.0.0.1:5432)
//   REDIS_URL     Redis for sessions (default 127.0.0.1:6379)
import { buildApp } from '@foodshare/api/app';
import { loadConfig } from '@foodshare/api/config';
import {
  countCall,
  type CountedCall,
  growSpecData,
  signInDemoUsers,
  specCalls,
  type Sql,
} from '@foodshare/api/test-support/query-budget';
import { loadDemoData, migrateDatabase, openOrm, type DemoDataIds } from '@foodshare/domain';
import { openKeyValueStore } from '@foodshare/server-kit';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, withDatabaseName } from '@foodshare/testing';
import pg from 'pg';

const serverUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const databaseUrl = withDatabaseName(serverUrl, 'fs_bench_queries');

async function onServer(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

await onServer('DROP DATABASE IF EXISTS fs_bench_queries WITH (FORCE)');
await onServer('CREATE DATABASE fs_bench_queries');
await migrateDatabase(databaseUrl);

const orm = await openOrm({ url: databaseUrl });
const ids: DemoDataIds = await loadDemoData(orm.em.fork());
const kv = await openKeyValueStore({
  redis: { url: process.env.REDIS_URL ?? DEFAULT_REDIS_URL },
  keyPrefix: `bench-queries:${process.pid}:`,
});
const app = await buildApp(
  loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', NODE_ENV: 'development' }),
  { orm, kv },
);
await app.ready();

// The same calls, data growth and counting as apps/api/src/query-budget.test.ts, which asserts
// the figures this prints. Preparing and growing the data runs outside the counted requests.
const sql: Sql = (text, params = []) => orm.em.fork().execute(text, params);
const clients = await signInDemoUsers(app, ids);
const calls = specCalls(ids);
const before: CountedCall[] = [];
for (const call of calls) before.push(await countCall(app, clients, call, sql));
const grownBy = 10_000;
await growSpecData(sql, ids, grownBy);
const after: CountedCall[] = [];
for (const call of calls) after.push(await countCall(app, clients, call, sql));

await app.close();
await orm.close();
await kv.close();

console.log('\nSQL statements per request (begin and commit counted), one request each');
console.log(
  `"grown": after ${grownBy} more store log entries, messages and forum posts, ` +
    `${grownBy / 10} more of each related row (members, applicants, bananas, reports, ...)\n`,
);
console.log(['row', 'as'.padEnd(6), 'endpoint'.padEnd(58), 'status', 'queries', 'grown'].join(' '));
calls.forEach((call, index) => {
  const small = before[index];
  const grown = after[index];
  if (!small || !grown) return;
  console.log(
    [
      String(call.row).padStart(3),
      call.who.padEnd(6),
      small.label.padEnd(58),
      String(small.status).padStart(6),
      String(small.queries).padStart(7),
      String(grown.queries).padStart(5),
    ].join(' '),
  );
});
const failed = [...before, ...after].filter((result) => result.status >= 400);
if (failed.length > 0) {
  console.error(
    `\n${failed.length} request(s) did not succeed: the figures above are not all meaningful`,
  );
  process.exitCode = 1;
}

// `pnpm bench:queries`: how many SQL statements each SPEC.md endpoint sends for one request,
// on the demo data and again after the tables they read have grown. A count that grows with
// the data is an N+1; the budget is "a few" whatever the size (issue #3).
//
//   DATABASE_URL  server to create the `fs_bench_queries` database on (default 127.0.0.1:5432)
//   REDIS_URL     Redis for sessions (default 127.0.0.1:6379)
import { buildApp } from '@foodshare/api/app';
import { loadConfig } from '@foodshare/api/config';
import {
  DemoRegionId,
  loadDemoData,
  migrateDatabase,
  openOrm,
  type DemoDataIds,
} from '@foodshare/domain';
import { openKeyValueStore, signInAs, type SignedInClient } from '@foodshare/server-kit';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, withDatabaseName } from '@foodshare/testing';
import pg from 'pg';

const serverUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const databaseUrl = withDatabaseName(serverUrl, 'fs_bench_queries');

async function sql(url: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

await sql(serverUrl, 'DROP DATABASE IF EXISTS fs_bench_queries WITH (FORCE)');
await sql(serverUrl, 'CREATE DATABASE fs_bench_queries');
await migrateDatabase(databaseUrl);

let counting = false;
let queries = 0;
const orm = await openOrm({
  url: databaseUrl,
  onQuery: (line) => {
    if (counting && line.includes('[query]')) queries += 1;
  },
});
const ids: DemoDataIds = await loadDemoData(orm.em.fork());
const kv = await openKeyValueStore({
  redisUrl: process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
  keyPrefix: `bench-queries:${process.pid}:`,
});
const app = await buildApp(
  loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', NODE_ENV: 'development' }),
  { orm, kv },
);
await app.ready();

const as: Record<string, SignedInClient> = {};
for (const name of ['orga', 'alice', 'bob', 'carla', 'dana', 'kim'] as const) {
  as[name] = await signInAs(app, ids.users[name]);
}

interface Call {
  row: string;
  who: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: () => Promise<string> | string;
  body?: unknown;
}

const { users } = ids;
const now = new Date();
const monthAgo = new Date(now.getTime() - 30 * 24 * 3600 * 1000);
const banana = 'Thank you for every pickup and for always bringing the crates back. '.repeat(2);

async function firstQuizAnswer(): Promise<string> {
  const [row] = await sql(
    databaseUrl,
    `select q.quiz_id, a.question_id, a.id from quiz_answers a
       join quiz_questions q on q.id = a.question_id order by a.id desc limit 1`,
  );
  if (!row) throw new Error('the demo data has no quiz answer');
  return `/api/quiz/${String(row.quiz_id)}/questions/${String(row.question_id)}/answers/${String(row.id)}`;
}

// Reads first, then writes, each on a target where it succeeds (alice's demo banana for bob
// is taken back before she gives it again).
const calls: Call[] = [
  { row: '1', who: 'dana', method: 'GET', url: () => `/api/forum/post/${ids.hiddenPostId}/hide` },
  { row: '3', who: 'orga', method: 'GET', url: () => `/api/users/${users.bob}/reports` },
  { row: '6', who: 'alice', method: 'GET', url: () => '/api/search/index' },
  {
    row: '8',
    who: 'alice',
    method: 'GET',
    url: () =>
      `/api/stores/${ids.storeId}/log/${monthAgo.toISOString()}/${now.toISOString()}/actions/1,2,3,4,5,6,7,8,9,10,11,12,13`,
  },
  { row: '9', who: 'kim', method: 'GET', url: () => `/api/chains/${ids.chainId}` },
  { row: '12', who: 'alice', method: 'GET', url: () => '/api/resources/own' },
  { row: '16', who: 'orga', method: 'GET', url: () => `/api/regions/${DemoRegionId.Musterstadt}` },
  { row: '18', who: 'alice', method: 'GET', url: () => `/api/stores/${ids.storeId}/requests` },
  {
    row: '-',
    who: 'alice',
    method: 'GET',
    url: () => `/api/conversations/${ids.conversationId}/messages`,
  },
  {
    row: '2',
    who: 'alice',
    method: 'POST',
    url: () => `/api/conversations/${ids.conversationId}/messages`,
    body: { body: 'See you at the pickup at six.' },
  },
  {
    row: '10',
    who: 'bob',
    method: 'POST',
    url: () => `/api/conversations/${ids.conversationId}/readStatus?read=1`,
  },
  {
    row: '11',
    who: 'kim',
    method: 'PATCH',
    url: () => `/api/chains/${ids.chainId}`,
    body: { notes: 'Pickups on weekdays only.' },
  },
  {
    row: '13',
    who: 'bob',
    method: 'DELETE',
    url: () => `/api/users/${users.bob}/bananas/${users.alice}`,
  },
  {
    row: '17',
    who: 'alice',
    method: 'POST',
    url: () => `/api/users/${users.bob}/bananas`,
    body: { message: banana },
  },
  { row: '14', who: 'orga', method: 'DELETE', url: firstQuizAnswer },
  {
    row: '15',
    who: 'dana',
    method: 'POST',
    url: () => `/api/region/${DemoRegionId.Musterstadt}/options`,
    body: { enableReportButton: true },
  },
  {
    row: '4',
    who: 'alice',
    method: 'DELETE',
    url: () => `/api/groups/${DemoRegionId.MusterstadtWorkGroup}/applications/${users.carla}`,
  },
  { row: '7', who: 'alice', method: 'POST', url: () => '/api/user/current/passport' },
  {
    row: '5',
    who: 'carla',
    method: 'POST',
    url: () => '/api/users/current/quiz-sessions/1/confirmation',
  },
];

interface Counted {
  status: number;
  queries: number;
  label: string;
}

async function count(call: Call): Promise<Counted> {
  const client = as[call.who];
  if (!client) throw new Error(`no client for ${call.who}`);
  const url = await call.url();
  queries = 0;
  counting = true;
  const response = await app.inject({
    method: call.method,
    url,
    cookies: client.cookies,
    headers: call.method === 'GET' ? {} : client.headers,
    ...(call.body === undefined ? {} : { payload: call.body as object }),
  });
  counting = false;
  const label = `${call.method} ${url.replace(/\/log\/.*$/, '/log/{from}/{to}/actions/{ids}')}`;
  return { status: response.statusCode, queries, label };
}

// Grows what the reads touch, by a factor no page size hides: store log, messages, reports.
async function growData(rows: number): Promise<void> {
  await sql(
    databaseUrl,
    `insert into store_log_entries (store_id, action_type, actor_id, target_id, performed_at)
       select $1, 1 + (g % 13), $2, $3, now() - (g % 500) * interval '1 hour'
       from generate_series(1, $4) g`,
    [ids.storeId, users.alice, users.bob, rows],
  );
  await sql(
    databaseUrl,
    `insert into messages (conversation_id, author_id, body, sent_at)
       select $1, $2, 'message ' || g, now() - g * interval '1 minute'
       from generate_series(1, $3) g`,
    [ids.conversationId, users.bob, rows],
  );
  await sql(
    databaseUrl,
    `insert into reports (reporter_id, reported_id, store_id, message, reason, reported_at)
       select $1, $2, $3, 'report ' || g, 'late', now() - g * interval '1 hour'
       from generate_series(1, $4) g`,
    [users.alice, users.bob, ids.storeId, rows / 10],
  );
}

const reads = calls.filter((call) => call.method === 'GET');
const readsBefore: Counted[] = [];
for (const call of reads) readsBefore.push(await count(call));
const writes: Counted[] = [];
for (const call of calls.filter((c) => c.method !== 'GET')) writes.push(await count(call));
const grownBy = 10_000;
await growData(grownBy);
const readsAfter: Counted[] = [];
for (const call of reads) readsAfter.push(await count(call));

await app.close();
await orm.close();
await kv.close();

console.log('\nSQL statements per request (begin and commit counted), one request each');
console.log(
  `"grown": after ${grownBy} more store log entries and messages, ${grownBy / 10} more reports\n`,
);
console.log(['row', 'as'.padEnd(6), 'endpoint'.padEnd(58), 'status', 'queries', 'grown'].join(' '));
const line = (row: string, who: string, r: Counted, grown = '') =>
  console.log(
    [
      row.padStart(3),
      who.padEnd(6),
      r.label.padEnd(58),
      String(r.status).padStart(6),
      String(r.queries).padStart(7),
      grown.padStart(5),
    ].join(' '),
  );
reads.forEach((call, index) => {
  const before = readsBefore[index];
  const after = readsAfter[index];
  if (before && after) line(call.row, call.who, before, String(after.queries));
});
calls
  .filter((c) => c.method !== 'GET')
  .forEach((call, index) => {
    const result = writes[index];
    if (result) line(call.row, call.who, result);
  });
const failed = [...readsBefore, ...writes, ...readsAfter].filter((r) => r.status >= 400);
if (failed.length > 0) {
  console.error(
    `\n${failed.length} request(s) did not succeed: the figures above are not all meaningful`,
  );
  process.exitCode = 1;
}

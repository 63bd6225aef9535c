// The query budget of the endpoints of docs/spec.md §4.1 (docs/design.md §3.11): no endpoint
// issues more than a few queries, whatever the data size. Shared by the query-budget test, which
// asserts the counts, and by `pnpm bench:queries` (scripts/query-count.ts), which prints them.
import { DemoRegionId, type DemoDataIds, type DemoUserName } from '@foodshare/domain';
import { countQueries, signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import type { ApiApp } from '../app.ts';

/** Runs SQL with `?` placeholders, outside the counted requests. */
export type Sql = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export interface SpecCall {
  /** The row of the endpoint table, docs/spec.md §4.1. */
  row: number;
  who: DemoUserName;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Brings the data into the state in which the call succeeds again; run before each count. */
  prepare?: (sql: Sql) => Promise<void>;
  url: (sql: Sql) => Promise<string> | string;
  /** Called once per request: a patch must change something each time. */
  body?: () => unknown;
}

const BANANA = 'Thank you for every pickup and for always bringing the crates back. '.repeat(2);

/**
 * One successful call of each row of docs/spec.md §4.1 on the demo data, repeatable: `prepare`
 * restores what the previous call changed (the banana given, the application declined, the quiz
 * confirmed).
 */
export function specCalls(ids: DemoDataIds): SpecCall[] {
  const { users } = ids;
  const now = new Date();
  const monthAgo = new Date(now.getTime() - 30 * 24 * 3600 * 1000);
  let patches = 0;
  let optionChanges = 0;
  return [
    { row: 1, who: 'dana', method: 'GET', url: () => `/api/forum/post/${ids.hiddenPostId}/hide` },
    {
      row: 2,
      who: 'alice',
      method: 'POST',
      url: () => `/api/conversations/${ids.conversationId}/messages`,
      body: () => ({ body: 'See you at the pickup at six.' }),
    },
    { row: 3, who: 'orga', method: 'GET', url: () => `/api/users/${users.bob}/reports` },
    {
      row: 4,
      who: 'alice',
      method: 'DELETE',
      prepare: async (sql) => {
        await sql(
          `insert into work_group_applications (group_id, user_id) values (?, ?)
           on conflict do nothing`,
          [DemoRegionId.MusterstadtWorkGroup, users.carla],
        );
      },
      url: () => `/api/groups/${DemoRegionId.MusterstadtWorkGroup}/applications/${users.carla}`,
    },
    {
      row: 5,
      who: 'carla',
      method: 'POST',
      // A fresh passed session, and carla a foodsharer again, as before her first confirmation.
      prepare: async (sql) => {
        await sql(
          `insert into quiz_sessions (user_id, quiz_id, status, started_at, finished_at)
           values (?, 1, 1, now(), now())`,
          [users.carla],
        );
        await sql('update users set role = 0 where id = ?', [users.carla]);
      },
      url: () => '/api/users/current/quiz-sessions/1/confirmation',
    },
    { row: 6, who: 'alice', method: 'GET', url: () => '/api/search/index' },
    { row: 7, who: 'alice', method: 'POST', url: () => '/api/user/current/passport' },
    {
      row: 8,
      who: 'alice',
      method: 'GET',
      url: () =>
        `/api/stores/${ids.storeId}/log/${monthAgo.toISOString()}/${now.toISOString()}/actions/1,2,3,4,5,6,7,8,9,10,11,12,13`,
    },
    { row: 9, who: 'kim', method: 'GET', url: () => `/api/chains/${ids.chainId}` },
    {
      row: 10,
      who: 'bob',
      method: 'POST',
      url: () => `/api/conversations/${ids.conversationId}/readStatus?read=1`,
    },
    {
      row: 11,
      who: 'kim',
      method: 'PATCH',
      url: () => `/api/chains/${ids.chainId}`,
      body: () => ({ notes: `Pickups on weekdays only (${++patches}).` }),
    },
    { row: 12, who: 'alice', method: 'GET', url: () => '/api/resources/own' },
    {
      row: 13,
      who: 'bob',
      method: 'DELETE',
      prepare: async (sql) => {
        await sql(
          `insert into bananas (recipient_id, sender_id, message) values (?, ?, ?)
           on conflict do nothing`,
          [users.bob, users.alice, BANANA],
        );
      },
      url: () => `/api/users/${users.bob}/bananas/${users.alice}`,
    },
    {
      row: 14,
      who: 'orga',
      method: 'DELETE',
      prepare: async (sql) => {
        await sql(
          `insert into quiz_answers (question_id, text, is_right)
           select id, 'One more answer', false from quiz_questions where quiz_id = 1
           order by id limit 1`,
        );
      },
      url: async (sql) => {
        const [row] = await sql(
          `select q.quiz_id, a.question_id, a.id from quiz_answers a
             join quiz_questions q on q.id = a.question_id order by a.id desc limit 1`,
        );
        if (!row) throw new Error('the demo data has no quiz answer');
        return `/api/quiz/${String(row.quiz_id)}/questions/${String(row.question_id)}/answers/${String(row.id)}`;
      },
    },
    {
      row: 15,
      who: 'dana',
      method: 'POST',
      url: () => `/api/region/${DemoRegionId.Musterstadt}/options`,
      body: () => ({ enableReportButton: ++optionChanges % 2 === 1 }),
    },
    { row: 16, who: 'orga', method: 'GET', url: () => `/api/regions/${DemoRegionId.Musterstadt}` },
    {
      row: 17,
      who: 'alice',
      method: 'POST',
      prepare: async (sql) => {
        await sql('delete from bananas where recipient_id = ? and sender_id = ?', [
          users.bob,
          users.alice,
        ]);
      },
      url: () => `/api/users/${users.bob}/bananas`,
      body: () => ({ message: BANANA }),
    },
    { row: 18, who: 'alice', method: 'GET', url: () => `/api/stores/${ids.storeId}/requests` },
  ];
}

/** A signed-in client for each demo user. */
export async function signInDemoUsers(
  app: ApiApp,
  ids: DemoDataIds,
): Promise<Record<DemoUserName, SignedInClient>> {
  const clients: Partial<Record<DemoUserName, SignedInClient>> = {};
  for (const name of Object.keys(ids.users) as DemoUserName[]) {
    clients[name] = await signInAs(app, ids.users[name]);
  }
  return clients as Record<DemoUserName, SignedInClient>;
}

export interface CountedCall {
  status: number;
  queries: number;
  /** The path, with the store log's dates and ids folded. */
  label: string;
}

/** Prepares the call, then sends it and counts the statements of that request alone. */
export async function countCall(
  app: ApiApp,
  clients: Record<DemoUserName, SignedInClient>,
  call: SpecCall,
  sql: Sql,
): Promise<CountedCall> {
  const client = clients[call.who];
  await call.prepare?.(sql);
  const url = await call.url(sql);
  const body = call.body?.();
  const { result: response, queries } = await countQueries(app.orm, () =>
    app.inject({
      method: call.method,
      url,
      cookies: client.cookies,
      headers: call.method === 'GET' ? {} : client.headers,
      ...(body === undefined ? {} : { payload: body as object }),
    }),
  );
  const label = `${call.method} ${url.replace(/\/log\/.*$/, '/log/{from}/{to}/actions/{ids}')}`;
  return { status: response.statusCode, queries, label };
}

/**
 * Adds `rows` rows to every table an endpoint of docs/spec.md §4.1 reads (a tenth of that where
 * a row costs more), around the demo rows the calls use: a count that grows with them is an N+1.
 */
export async function growSpecData(sql: Sql, ids: DemoDataIds, rows: number): Promise<void> {
  const { users } = ids;
  const some = Math.max(1, Math.floor(rows / 10));
  const marker = `grown${Date.now()}`;
  // Users to relate: members, admins, applicants, KAMs, senders, readers.
  await sql(
    `insert into users (first_name, last_name, email, password_hash, role, verified, home_region_id)
     select 'Grown' || g, 'User', ? || g || '@example.org', 'x', 1, true, ?
       from generate_series(1, ?) g`,
    [marker, DemoRegionId.Musterstadt, some],
  );
  const relate = (text: string, params: unknown[]) =>
    sql(`${text} from users u where u.email like ?`, [...params, `${marker}%`]);
  await relate('insert into region_memberships (region_id, user_id) select ?, u.id', [
    DemoRegionId.Musterstadt,
  ]);
  await relate('insert into region_admins (region_id, user_id) select ?, u.id', [
    DemoRegionId.Musterstadt,
  ]);
  await relate(
    'insert into conversation_members (conversation_id, user_id, unread) select ?, u.id, true',
    [ids.conversationId],
  );
  await relate(
    `insert into store_team_memberships (store_id, user_id, status, application_message, applied_at)
     select ?, u.id, 0, 'Please', now()`,
    [ids.storeId],
  );
  await relate('insert into store_chain_kams (chain_id, user_id) select ?, u.id', [ids.chainId]);
  await relate('insert into bananas (recipient_id, sender_id, message) select ?, u.id, ?', [
    users.bob,
    BANANA,
  ]);
  await relate('insert into work_group_applications (group_id, user_id) select ?, u.id', [
    DemoRegionId.MusterstadtWorkGroup,
  ]);
  await sql(
    `insert into store_log_entries (store_id, action_type, actor_id, target_id, performed_at)
     select ?, 1 + (g % 13), ?, ?, now() - (g % 500) * interval '1 hour'
       from generate_series(1, ?) g`,
    [ids.storeId, users.alice, users.bob, rows],
  );
  await sql(
    `insert into messages (conversation_id, author_id, body, sent_at)
     select ?, ?, 'message ' || g, now() - g * interval '1 minute' from generate_series(1, ?) g`,
    [ids.conversationId, users.bob, rows],
  );
  await sql(
    `insert into reports (reporter_id, reported_id, store_id, message, reason, reported_at)
     select ?, ?, ?, 'report ' || g, 'late', now() - g * interval '1 hour'
       from generate_series(1, ?) g`,
    [users.alice, users.bob, ids.storeId, some],
  );
  await sql(
    `insert into forum_posts (thread_id, author_id, body, created_at)
     select ?, ?, 'post ' || g, now() - g * interval '1 minute' from generate_series(1, ?) g`,
    [ids.forumThreadId, users.dana, rows],
  );
  await sql(
    `insert into stores (name, region_id, chain_id, cooperation_status)
     select 'Branch ' || g, ?, ?, 5 from generate_series(1, ?) g`,
    [DemoRegionId.Musterstadt, ids.chainId, some],
  );
  await sql(
    `insert into quiz_answers (question_id, text, is_right)
     select q.id, 'answer ' || g, false
       from quiz_questions q, generate_series(1, ?) g where q.quiz_id = 1`,
    [some],
  );
  // Older sessions than any a call prepares: the last one stays the passed one.
  await sql(
    `insert into quiz_sessions (user_id, quiz_id, status, started_at, finished_at)
     select ?, 1 + (g % 3), 2, now() - interval '1 year' - g * interval '1 hour',
            now() - interval '1 year' - g * interval '1 hour'
       from generate_series(1, ?) g`,
    [users.carla, some],
  );
  await sql(
    `insert into passport_generations (user_id, generated_by_id, created_at)
     select ?, ?, now() - g * interval '1 day' from generate_series(1, ?) g`,
    [users.alice, users.alice, some],
  );
  // At most 10 resources per user: alice gets her full share.
  await sql(
    `insert into resources (owner_id, region_id, name, openness)
     select ?, ?, 'Crate ' || g, 1 + g % 5
       from generate_series(1, 10 - (select count(*)::int from resources where owner_id = ?)) g`,
    [users.alice, DemoRegionId.Musterstadt, users.alice],
  );
}

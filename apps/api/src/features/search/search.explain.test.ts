import { describe, expect, it, test } from '../../test-support/fixtures.ts';
import { explainQuery } from '../../test-support/query-plans.ts';
import { searchIndexQuery } from './search-index.sql.ts';

/**
 * The search index on a community with a million rows in each of its fastest-growing tables
 * (and tens of thousands in the others): the plan of the very SQL the service runs must reach
 * every table through an index. A sequential scan would read a whole table on every page load
 * of every user.
 */
const USERS = 100_000;
const REGIONS = 10_000;
const CONVERSATIONS = 200_000;
const MAILBOXES = 10_000;
const STORES = 10_000;

/** Their secondary indexes are built after the fill, as a bulk load does. */
const MILLION_ROW_TABLES = [
  'region_memberships',
  'forum_threads',
  'conversation_members',
  'messages',
];

/** Tables the index reads that grow with the platform; each must be reached through an index. */
const BIG_TABLES = [
  'users',
  'regions',
  'region_memberships',
  'region_admins',
  'forum_threads',
  'forum_posts',
  'conversations',
  'conversation_members',
  'messages',
  'mailbox_members',
  'mails',
  'stores',
  'store_team_memberships',
  'food_share_points',
  'events',
  'event_invitations',
  'polls',
  'poll_votes',
  'buddies',
];

// Row i of each fill names other rows arithmetically, so the fill is one INSERT ... SELECT per
// table. Foreign-key triggers are off for the fill only (session_replication_role), as in a
// restore: the rows are consistent by construction and the fill stays within seconds.
const FILL = [
  `insert into users (first_name, last_name, email, password_hash, home_region_id)
   select 'Nutzer' || i, 'N', 'fill' || i || '@explain.example.org', 'x', 4
     from generate_series(1, ${USERS}) i`,
  `insert into regions (name, type, parent_id, mailbox)
   select 'Bezirk ' || i, 1, 2, 'bezirk' || i from generate_series(1, ${REGIONS}) i`,
  // Ten regions per user: a million memberships.
  `insert into region_memberships (region_id, user_id)
   select r.first + i / 100, u.first + (i % 100 * 1000 + i / 100) % ${USERS}
     from (select min(id) as first from regions where name like 'Bezirk %') r,
          (select min(id) as first from users where email like 'fill%') u,
          generate_series(0, ${REGIONS * 100 - 1}) i`,
  `insert into region_admins (region_id, user_id)
   select r.id, (select min(id) from users where email like 'fill%') + r.id % ${USERS}
     from regions r where r.name like 'Bezirk %'`,
  // A hundred threads per region, each with one post: a million of each.
  `insert into forum_threads (region_id, title, last_post_at, is_ambassador_forum)
   select r.first + i / 100, 'Thema ' || i, now() - i * interval '1 second', i % 10 = 0
     from (select min(id) as first from regions where name like 'Bezirk %') r,
          generate_series(0, 999999) i`,
  `insert into forum_posts (thread_id, body, created_at)
   select id, 'Beitrag ' || id, last_post_at from forum_threads where id % 5 = 0`,
  `insert into conversations (created_at)
   select now() - i * interval '1 minute' from generate_series(1, ${CONVERSATIONS}) i`,
  // Five members per conversation, each user in ten conversations: a million memberships.
  `insert into conversation_members (conversation_id, user_id)
   select c.first + i / 5, u.first + (i / 5 * 5 + i % 5 * 7) % ${USERS}
     from (select min(id) as first from conversations) c,
          (select min(id) as first from users where email like 'fill%') u,
          generate_series(0, ${CONVERSATIONS * 5 - 1}) i`,
  `insert into messages (conversation_id, author_id, body, sent_at)
   select c.first + i / 5, u.first + (i / 5 * 5 + i % 5 * 7) % ${USERS}, 'Nachricht ' || i,
          now() - i * interval '1 second'
     from (select min(id) as first from conversations) c,
          (select min(id) as first from users where email like 'fill%') u,
          generate_series(0, 999999) i`,
  `insert into mailboxes (name) select 'postfach' || i from generate_series(1, ${MAILBOXES}) i`,
  `insert into mailbox_members (mailbox_id, user_id)
   select m.first + i % ${MAILBOXES}, u.first + i
     from (select min(id) as first from mailboxes where name like 'postfach%') m,
          (select min(id) as first from users where email like 'fill%') u,
          generate_series(0, ${USERS - 1}) i`,
  `insert into mails (mailbox_id, sender_mail, recipient_mail, subject, sent_at)
   select m.first + i / 20, 'a@example.org', 'b@example.org', 'Betreff ' || i,
          now() - i * interval '1 second'
     from (select min(id) as first from mailboxes where name like 'postfach%') m,
          generate_series(0, ${MAILBOXES * 20 - 1}) i`,
  `insert into stores (name, region_id, cooperation_status)
   select 'Betrieb ' || i, r.first + i % ${REGIONS}, 5
     from (select min(id) as first from regions where name like 'Bezirk %') r,
          generate_series(0, ${STORES - 1}) i`,
  `insert into store_team_memberships (store_id, user_id, status)
   select s.first + i / 5, u.first + i % ${USERS}, i % 3
     from (select min(id) as first from stores where name like 'Betrieb %') s,
          (select min(id) as first from users where email like 'fill%') u,
          generate_series(0, ${STORES * 5 - 1}) i`,
  `insert into food_share_points (name, region_id)
   select 'Fairteiler ' || i, r.first + i % ${REGIONS}
     from (select min(id) as first from regions where name like 'Bezirk %') r,
          generate_series(0, 19999) i`,
  `insert into events (region_id, name, start_at, end_at)
   select r.first + i % ${REGIONS}, 'Treffen ' || i, now() + i * interval '1 hour',
          now() + i * interval '1 hour' + interval '2 hours'
     from (select min(id) as first from regions where name like 'Bezirk %') r,
          generate_series(0, 24999) i`,
  `insert into event_invitations (event_id, user_id)
   select e.first + i / 2, u.first + (i / 2 + i % 2 * 50000) % ${USERS}
     from (select min(id) as first from events where name like 'Treffen %') e,
          (select min(id) as first from users where email like 'fill%') u,
          generate_series(0, 49999) i`,
  `insert into polls (region_id, name, start_at, end_at)
   select r.first + i % ${REGIONS}, 'Umfrage ' || i, now() - i * interval '1 hour', now()
     from (select min(id) as first from regions where name like 'Bezirk %') r,
          generate_series(0, 24999) i`,
  `insert into poll_votes (poll_id, user_id)
   select p.first + i / 2, u.first + (i / 2 + i % 2 * 50000) % ${USERS}
     from (select min(id) as first from polls where name like 'Umfrage %') p,
          (select min(id) as first from users where email like 'fill%') u,
          generate_series(0, 49999) i`,
  `insert into buddies (user_id, buddy_id)
   select u.first + i / 2, u.first + (i / 2 + 1 + i % 2) % ${USERS}
     from (select min(id) as first from users where email like 'fill%') u,
          generate_series(0, 49999) i`,
];

describe('the search index on a million rows', () => {
  test.beforeAll(async ({ app, sql }) => {
    await app.orm.em.fork().transactional(async (tx) => {
      await tx.execute('set local session_replication_role = replica');
      await tx.execute(`set local maintenance_work_mem = '256MB'`);
      // A bulk load builds the secondary indexes of the million-row tables once, after the
      // rows are in, rather than row by row: the same indexes, in a fraction of the time.
      const indexes = await tx.execute<{ name: string; definition: string }[]>(
        `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
           from pg_index i
          where i.indrelid = any (?::regclass[])
            and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
        [`{${MILLION_ROW_TABLES.join(',')}}`],
      );
      for (const { name } of indexes) await tx.execute(`drop index ${name}`);
      for (const statement of FILL) await tx.execute(statement);
      for (const { definition } of indexes) await tx.execute(definition);
    });
    await sql('analyze');
  }, 120_000);

  it('holds a million rows in each of the big tables it reads', async ({ sql }) => {
    for (const table of MILLION_ROW_TABLES) {
      const [count] = await sql<{ rows: string }[]>(`select count(*) as rows from ${table}`);
      expect(Number(count!.rows)).toBeGreaterThanOrEqual(1e6);
    }
  });

  it('plans every table through an index, never a sequential scan', async ({ sql }) => {
    const [user] = await sql<{ id: number }[]>(
      `select u.id from users u where u.email = 'fill1@explain.example.org'`,
    );
    const query = searchIndexQuery({ id: user!.id }, false, 'foodsharing.network');
    const nodes = await explainQuery(sql, query);
    const scanned = nodes
      .filter((node) => node['Relation Name'] !== undefined)
      .map((node) => `${node['Node Type']} on ${node['Relation Name']}`);
    const sequential = nodes.filter(
      (node) =>
        node['Node Type'] === 'Seq Scan' && BIG_TABLES.includes(node['Relation Name'] ?? ''),
    );
    expect(sequential.map((node) => node['Relation Name'])).toEqual([]);
    // Every big table the index reads shows up in the plan, so the check above covers it.
    for (const table of BIG_TABLES) {
      expect(scanned.some((scan) => scan.endsWith(` on ${table}`))).toBe(true);
    }
  });
});

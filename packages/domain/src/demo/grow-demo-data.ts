import type { EntityManager } from '../db/orm.ts';
import { DemoRegionId, DemoUserEmail } from './demo-ids.ts';
import { withBulkLoad } from './grow-bulk-load.ts';
import { growPlan, type GrowPlan } from './grow-plan.ts';
import { GROW_ACTIVITY_STEPS } from './grow-sql-activity.ts';
import { GROW_PEOPLE_STEPS, type GrowStep } from './grow-sql-people.ts';

export interface GrowDemoDataOptions {
  /** 1 is the production-like size of the benchmarks; 0.01 a hundredth of it. */
  scale: number;
  /** The moment the grown rows lie before; the demo data's own anchor when it was loaded. */
  now?: Date;
}

export interface GrowDemoDataResult {
  scale: number;
  plan: GrowPlan;
  /** Rows per table after the run. */
  counts: Record<GrownTable, number>;
  /** Milliseconds per step, in the order they ran. */
  steps: { name: string; ms: number }[];
}

// The tables the run inserts into; they are counted, given their next ids and analysed after it.
const GROWN_TABLES = [
  'users',
  'regions',
  'region_memberships',
  'region_admins',
  'stores',
  'store_team_memberships',
  'store_log_entries',
  'conversations',
  'conversation_members',
  'messages',
  'bananas',
  'reports',
  'forum_threads',
  'forum_posts',
] as const;
type GrownTable = (typeof GROWN_TABLES)[number];

// The run gives these rows explicit ids (computed from their index), so their identity
// sequences are moved past the new rows afterwards.
const TABLES_WITH_EXPLICIT_IDS = [
  'users',
  'regions',
  'stores',
  'conversations',
  'forum_threads',
] as const;

// Per-row triggers that revoke a member's OAuth tokens when their memberships change. Grown
// users have no tokens, and 300,000 single-row updates of `users` would only bloat it.
const TOKEN_REVOKING_TRIGGERS = ['region_memberships', 'region_admins'] as const;

// The per-row trigger that keeps conversations.last_message_at: a million single-row updates of
// `conversations` would only bloat it. The run sets the column once, from the messages, after.
const LAST_MESSAGE_TRIGGER = { table: 'messages', name: 'track_last_message' } as const;
const SET_LAST_MESSAGE_AT = `
  update conversations c set last_message_at = m.last_sent_at
    from (select conversation_id, max(sent_at) as last_sent_at from messages group by 1) m
   where m.conversation_id = c.id and c.last_message_at is distinct from m.last_sent_at`;

const GROW_LOCK = `select pg_advisory_xact_lock(hashtext('foodshare:grow-demo-data'))`;

interface DemoAnchors {
  alice: number;
  bob: number;
  demo_store: number;
  demo_conversation: number;
  alice_conversations: number;
}

/**
 * Grows a database holding the demo data to a production-like size (see GROW_AT_SCALE_ONE), in
 * one transaction of set-based inserts: every row is consistent with the schema and with the
 * platform's rules (members of the regions they act in, stores in member regions, store teams
 * of verified members, bananas between verified users once per pair, messages by conversation
 * members). Grown users log in with the demo password. Can be run again to grow further.
 */
export async function growDemoData(
  em: EntityManager,
  options: GrowDemoDataOptions,
): Promise<GrowDemoDataResult> {
  const plan = growPlan(options.scale);
  const now = options.now ?? new Date();
  const steps: { name: string; ms: number }[] = [];
  const run = async (tx: EntityManager, step: GrowStep) => {
    const started = performance.now();
    for (const sql of step.sql) await tx.execute(sql);
    steps.push({ name: step.name, ms: Math.round(performance.now() - started) });
  };

  let restoreStarted = 0;
  await em.transactional(async (tx) => {
    await tx.execute(GROW_LOCK);
    const anchors = await findDemoAnchors(tx);
    await createPlanTable(tx, plan, anchors, now);
    for (const table of TOKEN_REVOKING_TRIGGERS) {
      await tx.execute(`alter table ${table} disable trigger revoke_oauth_tokens`);
    }
    await tx.execute(
      `alter table ${LAST_MESSAGE_TRIGGER.table} disable trigger ${LAST_MESSAGE_TRIGGER.name}`,
    );
    await withBulkLoad(tx, GROWN_TABLES, async () => {
      for (const step of GROW_PEOPLE_STEPS) await run(tx, step);
      // The planner's picture of the new people, for the joins of the activity steps.
      await tx.execute('analyze users, region_memberships');
      for (const step of GROW_ACTIVITY_STEPS) await run(tx, step);
      restoreStarted = performance.now();
    });
    steps.push({
      name: 'indexes and foreign keys',
      ms: Math.round(performance.now() - restoreStarted),
    });
    for (const table of TOKEN_REVOKING_TRIGGERS) {
      await tx.execute(`alter table ${table} enable trigger revoke_oauth_tokens`);
    }
    await run(tx, { name: 'last message of each conversation', sql: [SET_LAST_MESSAGE_AT] });
    await tx.execute(
      `alter table ${LAST_MESSAGE_TRIGGER.table} enable trigger ${LAST_MESSAGE_TRIGGER.name}`,
    );
    for (const table of TABLES_WITH_EXPLICIT_IDS) {
      await tx.execute(
        `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`,
      );
    }
  });
  // Outside the transaction: VACUUM marks the new pages all-visible, which index-only scans
  // need, and ANALYZE gives the planner the new sizes.
  const started = performance.now();
  await em.getConnection().execute(`vacuum (analyze) ${GROWN_TABLES.join(', ')}`);
  steps.push({ name: 'vacuum and analyze', ms: Math.round(performance.now() - started) });

  return { scale: options.scale, plan, counts: await countRows(em), steps };
}

async function findDemoAnchors(em: EntityManager): Promise<DemoAnchors> {
  const rows = await em.execute<(DemoAnchors | Record<keyof DemoAnchors, null>)[]>(
    `select a.id as alice, b.id as bob,
            (select t.store_id from store_team_memberships t
              where t.user_id = a.id and t.is_manager order by t.store_id limit 1) as demo_store,
            (select m.conversation_id from conversation_members m
              where m.user_id in (a.id, b.id, c.id)
              group by m.conversation_id having count(*) = 3
              order by m.conversation_id limit 1) as demo_conversation,
            (select count(*)::int from conversation_members m where m.user_id = a.id)
              as alice_conversations
       from users a, users b, users c
      where a.email = ? and b.email = ? and c.email = ?`,
    [DemoUserEmail.alice, DemoUserEmail.bob, DemoUserEmail.carla],
  );
  const anchors = rows[0];
  if (!anchors?.alice || !anchors.demo_store || !anchors.demo_conversation) {
    throw new Error(
      'The database does not hold the demo data (its users, store and conversation): ' +
        'growing starts from it.',
    );
  }
  return anchors;
}

/** The sizes, id ranges and demo anchors every step reads, as a one-row temporary table. */
async function createPlanTable(
  em: EntityManager,
  plan: GrowPlan,
  anchors: DemoAnchors,
  now: Date,
): Promise<void> {
  const states = Math.max(1, Math.round(plan.regions * 0.002));
  const groups = Math.max(1, Math.round(plan.regions * 0.1));
  const cities = plan.regions - states - groups;
  const aliceExtra = Math.min(
    plan.conversations,
    Math.max(0, plan.demoUserConversations - anchors.alice_conversations),
  );
  await em.execute(
    `create temp table grow_plan on commit drop as
     select ?::int as users, ?::int as n_states, ?::int as n_cities, ?::int as n_groups,
            ?::int as stores, ?::int as store_log_entries, ?::int as demo_store_log_entries,
            ?::int as conversations, ?::int as messages, ?::int as demo_conversation_messages,
            ?::int as alice_extra_conversations, ?::int as bananas, ?::int as demo_user_bananas,
            ?::int as reports, ?::int as demo_user_reports, ?::int as forum_threads,
            ?::int as forum_posts, ?::int as demo_store_applications,
            ?::int as country, ?::int as alice, ?::int as bob, ?::int as demo_store,
            ?::int as demo_conversation, ?::timestamptz as now,
            b.first_region as first_state, b.first_region + ? as first_city,
            b.first_region + ? + ? as first_group, b.*,
            (select password_hash from users where id = ?) as password_hash,
            (select chain_id from stores where id = ?) as demo_chain,
            (select t.store_id from store_team_memberships t
              where t.user_id = ? and t.status = 1 order by t.store_id limit 1) as bob_store,
            (select least(min(applied_at), ?::timestamptz) from store_team_memberships
              where store_id = ?) as demo_application_oldest,
            (select least(min(sent_at), ?::timestamptz) from messages
              where conversation_id = ?) as demo_message_oldest,
            (select least(min(created_at), ?::timestamptz) from bananas
              where recipient_id = ?) as demo_banana_oldest,
            (select least(min(reported_at), ?::timestamptz) from reports
              where reported_id = ?) as demo_report_oldest
       from (select (select coalesce(max(id), 0) + 1 from regions) as first_region,
                    (select coalesce(max(id), 0) + 1 from users) as first_user,
                    (select coalesce(max(id), 0) + 1 from stores) as first_store,
                    (select coalesce(max(id), 0) + 1 from conversations) as first_conversation,
                    (select coalesce(max(id), 0) + 1 from forum_threads) as first_thread) b`,
    [
      plan.users,
      states,
      cities,
      groups,
      plan.stores,
      plan.storeLogEntries,
      plan.demoStoreLogEntries,
      plan.conversations,
      plan.messages,
      plan.demoConversationMessages,
      aliceExtra,
      plan.bananas,
      plan.demoUserBananas,
      plan.reports,
      plan.demoUserReports,
      plan.forumThreads,
      plan.forumPosts,
      plan.demoStoreApplications,
      DemoRegionId.Germany,
      anchors.alice,
      anchors.bob,
      anchors.demo_store,
      anchors.demo_conversation,
      now,
      states,
      states,
      cities,
      anchors.alice,
      anchors.demo_store,
      anchors.bob,
      now,
      anchors.demo_store,
      now,
      anchors.demo_conversation,
      now,
      anchors.bob,
      now,
      anchors.bob,
    ],
  );
}

async function countRows(em: EntityManager): Promise<Record<GrownTable, number>> {
  const rows = await em.execute<Record<GrownTable, number>[]>(
    `select ${GROWN_TABLES.map((table) => `(select count(*)::int from ${table}) as ${table}`).join(', ')}`,
  );
  return rows[0]!;
}

import type { GrowStep } from './grow-sql-people.ts';
import { ReportConsequenceKeys, ReportStatusPresets, reportStatusKey } from '../enums.ts';

/**
 * Set-based SQL for what the grown people do: stores and their teams and logs, conversations,
 * bananas, reports, the forum. Like the people steps, each row is computed from its index and
 * the `grow_plan` table; actors, authors and members come from the member lists of the units
 * involved, so that nobody acts where they do not belong.
 *
 * The rows that land on demo entities (the demo store's applications, the demo conversation's
 * messages, bob's bananas and reports) are dated before the demo rows, so that the newest page
 * of each still shows the hand-written demo data. The demo store's log is the exception: it
 * fills the last year up to now, as a busy store's does.
 */

const BANANA_MESSAGE =
  'Danke für die vielen gemeinsamen Abholungen! Du bist immer pünktlich, freundlich ' +
  'und hilfst neuen Foodsavern geduldig beim Einstieg. Eine Banane von Herzen.';
const REPORT_REASONS = `array['Unzuverlässig bei Abholungen','Umgangston','Nicht zur Abholung erschienen','Lebensmittel weitergegeben statt verteilt']`;
// Stored as the platform's translation keys, as the reports read serves them.
const sqlTextArray = (values: readonly string[]) =>
  `array[${values.map((value) => `'${value}'`).join(',')}]`;
const REPORT_STATUSES = sqlTextArray(ReportStatusPresets.map(reportStatusKey));
const CONSEQUENCES = sqlTextArray(ReportConsequenceKeys);
const MESSAGE_BODIES = `array['Wer kann morgen die Abholung übernehmen?','Ich bringe Kisten mit.','Danke, hat geklappt!','Treffen wir uns am Fairteiler?','Heute gab es viel Brot.','Ich bin zehn Minuten später da.']`;

export const GROW_ACTIVITY_STEPS: readonly GrowStep[] = [
  {
    name: 'stores',
    sql: [
      `insert into stores (id, name, region_id, chain_id, cooperation_status, team_status,
                           street, zip, city, latitude, longitude, created_at)
       select p.first_store + k, 'Betrieb ' || (k + 1), p.first_city + k % p.n_cities,
              case when k % 50 = 0 then p.demo_chain end,
              (array[0, 1, 2, 4, 5, 6, 7])[1 + k % 7], k % 3,
              'Marktplatz ' || (1 + k % 50), lpad((10000 + k % 89999)::text, 5, '0'),
              'Ort ' || (1 + k % p.n_cities),
              47.5 + (k % 983) * 0.0066, 6.0 + (k % 977) * 0.0089,
              p.now - (k % 2000) * interval '1 day'
         from grow_plan p, generate_series(0, p.stores - 1) k`,
    ],
  },
  {
    name: 'store teams',
    // Up to five verified members of the store's city; the first is its manager when their
    // role allows it, the fifth waits on standby.
    sql: [
      `insert into store_team_memberships (store_id, user_id, status, is_manager, joined_at)
       select s.id, u.id, case when t < 4 then 1 else 2 end, t = 0 and u.role >= 2,
              s.created_at + interval '1 day'
         from grow_plan p
         join stores s on s.id >= p.first_store
         join grow_city_members m on m.region_id = s.region_id
         cross join lateral generate_series(0, least(4, cardinality(m.verified_ids) - 1)) t
         join users u
           on u.id = m.verified_ids[1 + ((s.id - p.first_store) / p.n_cities * 5 + t)
                                       % cardinality(m.verified_ids)]`,
    ],
  },
  {
    name: 'applications to the demo store',
    sql: [
      `insert into store_team_memberships
         (store_id, user_id, status, is_manager, application_message, applied_at)
       select p.demo_store, v.id, 0, false,
              'Hallo! Ich wohne in der Nähe und würde gern bei euch abholen.',
              p.demo_application_oldest - (v.rn + 1) * interval '7 minutes'
         from grow_plan p join grow_verified v on v.rn < p.demo_store_applications`,
    ],
  },
  {
    name: 'store logs',
    // The demo store's log is written by its team and applicants; a grown store's by its team.
    sql: [
      `create temp table grow_store_teams on commit drop as
       select t.store_id, array_agg(t.user_id order by t.user_id) as ids
         from grow_plan p
         join store_team_memberships t on t.store_id >= p.first_store or t.store_id = p.demo_store
        group by t.store_id`,
      `alter table grow_store_teams add primary key (store_id)`,
      `insert into store_log_entries
         (store_id, action_type, actor_id, target_id, performed_at, date_reference)
       select e.store_id, e.action_type,
              t.ids[1 + e.n % cardinality(t.ids)], t.ids[1 + (e.n / 7) % cardinality(t.ids)],
              e.performed_at,
              case when e.action_type between 11 and 14
                   then e.performed_at + interval '2 days' end
         from (select case when n < p.demo_store_log_entries then p.demo_store
                           else p.first_store + (n - p.demo_store_log_entries) % p.stores end
                        as store_id,
                      n, 1 + (n * 7) % 20 as action_type,
                      -- Up to now: the log's window reaches back months from today, and a
                      -- busy store's recent weeks are full.
                      case when n < p.demo_store_log_entries
                           then p.now - (n + 1) * (interval '365 days' / p.demo_store_log_entries)
                           else p.now - (p.store_log_entries - n)
                                        * (interval '365 days' / greatest(1, p.store_log_entries - p.demo_store_log_entries))
                      end as performed_at
                 from grow_plan p, generate_series(0, p.store_log_entries - 1) n) e
         left join grow_store_teams t on t.store_id = e.store_id`,
    ],
  },
  {
    name: 'conversations',
    // Conversation j: grown users 2j and 2j+1, every third also 2j+2; alice is in the first
    // ones until she is in as many as the plan says.
    sql: [
      `insert into conversations (id, name, created_at)
       select p.first_conversation + j, case when j % 10 = 0 then 'Gruppe ' || (j + 1) end,
              p.now - interval '400 days'
         from grow_plan p, generate_series(0, p.conversations - 1) j`,
      `insert into conversation_members (conversation_id, user_id, unread, last_read_at, joined_at)
       select p.first_conversation + j, p.first_user + (2 * j + i) % p.users,
              (j + i) % 4 = 0, p.now - ((j + i) % 30) * interval '1 day', p.now - interval '400 days'
         from grow_plan p, generate_series(0, p.conversations - 1) j,
              generate_series(0, 2) i
        where i < 2 or j % 3 = 0
       union all
       select p.first_conversation + j, p.alice, j % 5 = 0, p.now - interval '1 day',
              p.now - interval '400 days'
         from grow_plan p, generate_series(0, p.alice_extra_conversations - 1) j`,
      `create temp table grow_conversation_members on commit drop as
       select m.conversation_id, array_agg(m.user_id order by m.user_id) as ids
         from grow_plan p
         join conversation_members m
           on m.conversation_id >= p.first_conversation or m.conversation_id = p.demo_conversation
        group by m.conversation_id`,
      `alter table grow_conversation_members add primary key (conversation_id)`,
    ],
  },
  {
    name: 'messages',
    sql: [
      `insert into messages (conversation_id, author_id, body, sent_at)
       select e.conversation_id, m.ids[1 + e.n % cardinality(m.ids)],
              (${MESSAGE_BODIES})[1 + e.n % 6], e.sent_at
         from (select case when n < p.demo_conversation_messages then p.demo_conversation
                           else p.first_conversation
                                + (n - p.demo_conversation_messages) % p.conversations end
                        as conversation_id,
                      n,
                      case when n < p.demo_conversation_messages
                           then p.demo_message_oldest - (n + 1) * (interval '365 days' / p.demo_conversation_messages)
                           else p.now - (p.messages - n)
                                        * (interval '365 days' / greatest(1, p.messages - p.demo_conversation_messages))
                      end as sent_at
                 from grow_plan p, generate_series(0, p.messages - 1) n) e
         join grow_conversation_members m on m.conversation_id = e.conversation_id`,
    ],
  },
  {
    name: 'bananas',
    // Between verified users only, never to oneself, each (recipient, sender) pair once: banana
    // g goes from verified user r + 1 + g / n to r = g % n (mod n), distinct while g < n (n - 1).
    sql: [
      `insert into bananas (recipient_id, sender_id, message, created_at)
       select p.bob, v.id, '${BANANA_MESSAGE}',
              p.demo_banana_oldest - (v.rn + 1) * interval '3 hours'
         from grow_plan p join grow_verified v on v.rn < p.demo_user_bananas
       union all
       select r.id, s.id, '${BANANA_MESSAGE}', p.now - (g % 700) * interval '1 day'
         from grow_plan p
         cross join (select count(*)::int as n from grow_verified) c
         cross join generate_series(0, p.bananas - p.demo_user_bananas - 1) g
         join grow_verified r on r.rn = g % c.n
         join grow_verified s on s.rn = (g % c.n + 1 + g / c.n) % c.n`,
    ],
  },
  {
    name: 'reports',
    // Reported by verified users; about bob in the demo's part, else about the next verified
    // user; the reported region is the reported person's home region.
    sql: [
      `insert into reports (reporter_id, reported_id, store_id, message, reason, status,
                            consequence, reported_at, reported_region_id)
       select r.id, coalesce(d.id, v.id),
              case when d.id is not null and g % 3 = 0 then p.bob_store end,
              'Beobachtet bei einer Abholung; bitte nachfragen.',
              (${REPORT_REASONS})[1 + g % 4],
              (${REPORT_STATUSES})[1 + g % 8],
              case when g % 10 = 0 then (${CONSEQUENCES})[1 + (g / 10) % 4] end,
              case when d.id is not null
                   then p.demo_report_oldest - (g + 1) * interval '11 hours'
                   else p.now - (g % 1000) * interval '1 day' end,
              coalesce(d.home_region_id, v.home_region_id)
         from grow_plan p
         cross join (select count(*)::int as n from grow_verified) c
         cross join generate_series(0, p.reports - 1) g
         join grow_verified r on r.rn = g % c.n
         left join users d on d.id = p.bob and g < p.demo_user_reports
         left join grow_verified v on g >= p.demo_user_reports and v.rn = (g + 1) % c.n
        where r.id <> coalesce(d.id, v.id)`,
    ],
  },
  {
    name: 'forum',
    // Threads in the cities, written by their members; posts every three hours.
    sql: [
      `insert into forum_threads (id, region_id, title, author_id, created_at, last_post_at)
       select p.first_thread + t, p.first_city + t % p.n_cities, 'Thema ' || (t + 1),
              m.ids[1 + (t / p.n_cities) % cardinality(m.ids)],
              p.now - interval '500 days' + (t % 400) * interval '1 day',
              p.now - interval '500 days' + (t % 400) * interval '1 day'
                + ((p.forum_posts - 1 - t) / p.forum_threads) * interval '3 hours'
         from grow_plan p
         cross join generate_series(0, p.forum_threads - 1) t
         join grow_city_members m on m.region_id = p.first_city + t % p.n_cities`,
      `insert into forum_posts (thread_id, author_id, body, created_at)
       select th.id, m.ids[1 + (k + t) % cardinality(m.ids)],
              'Beitrag ' || (k + 1) || ' zum Thema ' || (t + 1) || '.',
              th.created_at + k * interval '3 hours'
         from grow_plan p
         cross join generate_series(0, p.forum_posts - 1) n
         cross join lateral (select n % p.forum_threads as t, n / p.forum_threads as k) i
         join forum_threads th on th.id = p.first_thread + i.t
         join grow_city_members m on m.region_id = th.region_id`,
    ],
  },
];

import { DemoUserEmail, growPlan, loadDemoData, UserEntity } from '@foodshare/domain';
import { describe, expect, it, type TestOrm } from '../test-support/fixtures.ts';
import { growDemoCommand, parseScale } from './demo.command.ts';

const SCALE = 0.01;
// Two growths and a dozen full-table checks: about 10 s alone, more on a busy machine.
const GROWTH_TIMEOUT_MS = 90_000;

/** The number of rows a query finds; each consistency rule below counts its violations. */
async function count(db: TestOrm, sql: string): Promise<number> {
  const rows = await db.em().execute<{ n: number }[]>(`select count(*)::int as n from (${sql}) q`);
  return rows[0]!.n;
}

describe('demo grow', () => {
  it('refuses a database without the demo data, changing nothing', async ({ db }) => {
    await expect(growDemoCommand(db.em(), { scale: SCALE, production: false })).rejects.toThrow(
      /does not hold the demo data/,
    );
    expect(await db.em().count(UserEntity, {})).toBe(0);
  });

  it('refuses in production unless allowed', async ({ db }) => {
    await expect(
      growDemoCommand(db.em(), { scale: SCALE, production: true }),
    ).rejects.toMatchObject({ code: 'REFUSED_IN_PRODUCTION' });
  });

  it('takes scales from 0.001 to 2 only', () => {
    expect(parseScale('0.01')).toBe(0.01);
    expect(parseScale('1')).toBe(1);
    for (const bad of ['0', '3', 'abc', '-1', '1e3', '']) {
      expect(() => parseScale(bad), bad).toThrow(/from 0.001 to 2/);
    }
  });

  it(
    'grows the demo data by the plan, consistent with the rules',
    async ({ db }) => {
      const ids = await loadDemoData(db.em());
      const before = await db.em().execute<Record<string, number>[]>(
        `select (select count(*)::int from users) as users,
              (select count(*)::int from messages where conversation_id = ${ids.conversationId})
                as demo_messages,
              (select max(id) from messages where conversation_id = ${ids.conversationId})
                as newest_demo_message,
              (select count(*)::int from bananas where recipient_id = ${ids.users.bob})
                as bob_bananas,
              (select max(id) from store_log_entries) as last_demo_log_entry`,
      );
      const plan = growPlan(SCALE);

      const result = await growDemoCommand(db.em(), { scale: SCALE, production: false });

      expect(result.counts.users).toBe(before[0]!.users! + plan.users);
      expect(result.counts.regions).toBeGreaterThanOrEqual(plan.regions);
      expect(result.counts.stores).toBeGreaterThanOrEqual(plan.stores);
      expect(result.counts.store_log_entries).toBeGreaterThanOrEqual(plan.storeLogEntries);
      expect(result.counts.messages).toBeGreaterThanOrEqual(plan.messages);
      expect(result.counts.bananas).toBeGreaterThanOrEqual(plan.bananas);
      expect(result.counts.reports).toBeGreaterThanOrEqual(plan.reports);
      expect(result.counts.forum_posts).toBeGreaterThanOrEqual(plan.forumPosts);

      // The demo entities get their share.
      expect(
        await count(db, `select 1 from messages where conversation_id = ${ids.conversationId}`),
      ).toBe(before[0]!.demo_messages! + plan.demoConversationMessages);
      expect(await count(db, `select 1 from bananas where recipient_id = ${ids.users.bob}`)).toBe(
        before[0]!.bob_bananas! + plan.demoUserBananas,
      );
      expect(
        await count(db, `select 1 from reports where reported_id = ${ids.users.bob}`),
      ).toBeGreaterThanOrEqual(plan.demoUserReports);
      expect(
        await count(
          db,
          `select 1 from store_team_memberships where store_id = ${ids.storeId} and status = 0`,
        ),
      ).toBeGreaterThanOrEqual(plan.demoStoreApplications);
      expect(
        await count(db, `select 1 from conversation_members where user_id = ${ids.users.alice}`),
      ).toBe(plan.demoUserConversations);
      expect(
        await count(db, `select 1 from store_log_entries where store_id = ${ids.storeId}`),
      ).toBeGreaterThanOrEqual(plan.demoStoreLogEntries);
      // The newest page still shows the hand-written demo rows: grown ones are older.
      const newest = await db.em().execute<{ id: number }[]>(
        `select id from messages where conversation_id = ${ids.conversationId}
        order by sent_at desc, id desc limit 1`,
      );
      expect(newest[0]!.id).toBe(before[0]!.newest_demo_message);

      // The rules, each counted as violations.
      const violations = {
        bananaFromOrToUnverified: await count(
          db,
          `select 1 from bananas b join users r on r.id = b.recipient_id
           join users s on s.id = b.sender_id
          where not (r.verified or r.role = 4) or not (s.verified or s.role = 4)`,
        ),
        storeOutsideMemberRegion: await count(
          db,
          `select 1 from stores s join regions r on r.id = s.region_id where r.type not in (1, 2, 3, 9)`,
        ),
        teamMemberNotInStoreRegion: await count(
          db,
          `select 1 from store_team_memberships t join stores s on s.id = t.store_id
          where t.status in (1, 2) and not exists (
            select 1 from region_memberships m
             where m.region_id = s.region_id and m.user_id = t.user_id and m.active)`,
        ),
        teamMemberUnverified: await count(
          db,
          `select 1 from store_team_memberships t join users u on u.id = t.user_id
          where t.status in (1, 2) and not u.verified`,
        ),
        managerBelowStoreManager: await count(
          db,
          `select 1 from store_team_memberships t join users u on u.id = t.user_id
          where t.is_manager and u.role < 2`,
        ),
        memberOfRegionWithoutMembers: await count(
          db,
          `select 1 from region_memberships m join regions r on r.id = m.region_id
          where r.type in (5, 6, 8)`,
        ),
        messageByNonMember: await count(
          db,
          `select 1 from messages x where not exists (
            select 1 from conversation_members m
             where m.conversation_id = x.conversation_id and m.user_id = x.author_id)`,
        ),
        postByNonMemberOfGrownCity: await count(
          db,
          `select 1 from forum_posts p join forum_threads t on t.id = p.thread_id
          where t.title like 'Thema %' and not exists (
            select 1 from region_memberships m
             where m.region_id = t.region_id and m.user_id = p.author_id)`,
        ),
        // (The demo's own log has an ambassador adding bob to a team she is not in.)
        storeLogActorOutsideTeam: await count(
          db,
          `select 1 from store_log_entries l
          where l.id > ${before[0]!.last_demo_log_entry} and l.actor_id is not null and not exists (
            select 1 from store_team_memberships t
             where t.store_id = l.store_id and t.user_id = l.actor_id)`,
        ),
        reportAboutOneself: await count(
          db,
          `select 1 from reports where reporter_id = reported_id`,
        ),
        // Set once after the load, with the trigger that keeps it switched off meanwhile.
        lastMessageAtNotTheNewest: await count(
          db,
          `select 1 from conversations c
          where c.last_message_at is distinct from (
            select max(m.sent_at) from messages m where m.conversation_id = c.id)`,
        ),
        lastMessageTriggerOff: await count(
          db,
          `select 1 from pg_trigger
          where tgname = 'track_last_message' and tgrelid = 'messages'::regclass
            and tgenabled <> 'O'`,
        ),
        homeRegionNotAMembership: await count(
          db,
          `select 1 from users u where u.home_region_id is not null and not exists (
            select 1 from region_memberships m
             where m.region_id = u.home_region_id and m.user_id = u.id)`,
        ),
      };
      expect(violations).toEqual(
        Object.fromEntries(Object.keys(violations).map((key) => [key, 0])),
      );

      // The identity sequences moved past the grown rows: the next ORM insert gets a new id.
      const em = db.em();
      const user = em.create(UserEntity, {
        firstName: 'Neu',
        lastName: 'Person',
        email: 'neu@example.org',
        passwordHash: 'x',
      });
      await em.persist(user).flush();
      expect(user.id).toBeGreaterThan(result.counts.users);

      // Growing again adds another share on top.
      const again = await growDemoCommand(db.em(), { scale: SCALE, production: false });
      expect(again.counts.users).toBe(result.counts.users + 1 + plan.users);
      expect(await count(db, `select 1 from users where email = '${DemoUserEmail.alice}'`)).toBe(1);
    },
    GROWTH_TIMEOUT_MS,
  );
});

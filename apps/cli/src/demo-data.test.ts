import {
  BananaEntity,
  ConversationMemberEntity,
  createRegion,
  DEMO_CLIENT_SECRET,
  DEMO_PASSWORD,
  DEMO_REDIRECT_URI,
  DemoClientId,
  DemoRegionId,
  DemoUserEmail,
  DEVELOPMENT_CLIENT_SECRET_PEPPER,
  EventInvitationEntity,
  FoodSharePointEntity,
  ForumPostEntity,
  loadDemoData,
  loadDemoDataIfEmpty,
  MailEntity,
  MessageEntity,
  OAuthClientEntity,
  PollVoteEntity,
  QuizAnswerEntity,
  QuizEntity,
  QuizSessionEntity,
  QuizSessionStatus,
  RegionAdminEntity,
  RegionEntity,
  RegionMembershipEntity,
  RegionOptionsEntity,
  RegionType,
  ReportEntity,
  ResourceEntity,
  Role,
  StoreChainKamEntity,
  StoreEntity,
  StoreLogEntryEntity,
  StoreTeamMembershipEntity,
  StoreTeamStatus,
  UserEntity,
  verifyClientSecret,
  verifyPassword,
  WellKnownUnit,
  WorkGroupApplicationEntity,
} from '@foodshare/domain';
import { describe, expect, it, test, type TestOrm } from './test-support/fixtures.ts';

const R = DemoRegionId;
let loads: boolean[];

test.beforeAll(async ({ db }) => {
  // Two loaders at once, as two processes starting on one empty database: one loads.
  loads = await Promise.all([loadDemoDataIfEmpty(db.em()), loadDemoDataIfEmpty(db.em())]);
});

function user(db: TestOrm, email: string): Promise<UserEntity> {
  return db.em().findOneOrFail(UserEntity, { email });
}

async function memberships(db: TestOrm, email: string): Promise<number[]> {
  const rows = await db
    .em()
    .find(
      RegionMembershipEntity,
      { user: { email }, active: true },
      { orderBy: { region: 'asc' } },
    );
  return rows.map((row) => row.region.id);
}

async function adminOf(db: TestOrm, email: string): Promise<number[]> {
  const rows = await db
    .em()
    .find(RegionAdminEntity, { user: { email } }, { orderBy: { region: 'asc' } });
  return rows.map((row) => row.region.id);
}

const MONTH = 30 * 24 * 3_600_000;

describe('loading the demo data', () => {
  it('loads once; loadDemoDataIfEmpty then does nothing', async ({ db }) => {
    expect(loads.toSorted()).toEqual([false, true]);
    const users = await db.em().count(UserEntity, {});
    expect(await loadDemoDataIfEmpty(db.em())).toBe(false);
    expect(await db.em().count(UserEntity, {})).toBe(users);
  });

  it('refuses to load a second time, changing nothing', async ({ db }) => {
    const stores = await db.em().count(StoreEntity, {});
    await expect(loadDemoData(db.em())).rejects.toThrow(/already holds user orga@example.org/);
    expect(await db.em().count(StoreEntity, {})).toBe(stores);
  });

  it('leaves the region ids to the database after the fixed ones', async ({ db }) => {
    const region = await createRegion(db.em(), { name: 'Neustadt', type: RegionType.City });
    expect(region.id).toBeGreaterThan(WellKnownUnit.OAuthClientAdministration);
  });
});

describe('the demo users', () => {
  it.for([
    [
      'orga',
      Role.Orga,
      true,
      [R.ItSupport, R.OAuthClientAdministration],
      [R.ItSupport, R.OAuthClientAdministration],
    ],
    [
      'alice',
      Role.StoreManager,
      true,
      [R.Musterstadt, R.MusterstadtWorkGroup],
      [R.MusterstadtWorkGroup],
    ],
    ['bob', Role.Foodsaver, true, [R.Beispieldorf], []],
    ['carla', Role.Foodsharer, false, [R.Musterstadt], []],
  ] as const)(
    '%s has role %i, verified %s, memberships %j and admin of %j',
    async ([name, role, verified, regions, admin], { db }) => {
      const email = DemoUserEmail[name];
      const found = await user(db, email);
      expect(found.role).toBe(role);
      expect(found.verified).toBe(verified);
      expect(await memberships(db, email)).toEqual(regions);
      expect(await adminOf(db, email)).toEqual(admin);
      expect(await verifyPassword(found.passwordHash, DEMO_PASSWORD)).toBe(true);
      expect(await verifyPassword(found.passwordHash, 'wrong-password')).toBe(false);
    },
  );

  it('include an ambassador of Musterstadt and a key account manager in the store-chain group', async ({
    db,
  }) => {
    expect((await user(db, DemoUserEmail.dana)).role).toBe(Role.Ambassador);
    expect(await adminOf(db, DemoUserEmail.dana)).toEqual([R.Musterstadt]);
    expect(await memberships(db, DemoUserEmail.kim)).toContain(WellKnownUnit.StoreChainGroup);
    const kams = await db.em().find(StoreChainKamEntity, {}, { populate: ['user'] });
    expect(kams.map((kam) => kam.user.$.email)).toEqual([DemoUserEmail.kim]);
  });

  it('give alice an avatar that is a PNG image', async ({ db }) => {
    const alice = await db
      .em()
      .findOneOrFail(
        UserEntity,
        { email: DemoUserEmail.alice },
        { populate: ['avatarUpload.content'] },
      );
    const content = Buffer.from(alice.avatarUpload!.$.content);
    expect(alice.avatarUpload!.$.mimeType).toBe('image/png');
    expect(content.subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});

describe('the demo units', () => {
  it('include the well-known units with their ids and the region tree', async ({ db }) => {
    const regions = await db
      .em()
      .find(RegionEntity, { id: { $in: Object.values(R) } }, { orderBy: { id: 'asc' } });
    const byId = new Map(regions.map((region) => [region.id, region]));
    for (const id of Object.values(WellKnownUnit)) {
      expect(byId.get(id)?.type).toBe(RegionType.WorkingGroup);
    }
    expect(byId.get(R.Germany)).toMatchObject({ name: 'Deutschland', type: RegionType.Country });
    expect(byId.get(R.FederalState)?.type).toBe(RegionType.FederalState);
    expect(byId.get(R.FederalState)?.parent?.id).toBe(R.Germany);
    for (const id of [R.Musterstadt, R.Beispieldorf]) {
      expect(byId.get(id)?.type).toBe(RegionType.City);
      expect(byId.get(id)?.parent?.id).toBe(R.FederalState);
    }
    expect(byId.get(R.Musterstadt)?.name).toBe('Musterstadt');
    expect(byId.get(R.Beispieldorf)?.name).toBe('Beispieldorf');
    expect(byId.get(R.MusterstadtWorkGroup)?.parent?.id).toBe(R.Musterstadt);
  });

  it('set options of Musterstadt', async ({ db }) => {
    const options = await db.em().findOneOrFail(RegionOptionsEntity, { region: R.Musterstadt });
    expect(options.enableReportButton).toBe(true);
    expect(options.regionPickupRuleActive).toBe(true);
  });
});

describe('the demo OAuth clients', () => {
  const common = {
    active: true,
    redirectUris: [DEMO_REDIRECT_URI],
    scopes: ['openid', 'profile', 'email', 'regions'],
    grantTypes: ['authorization_code', 'refresh_token'],
  };

  it.for<[string, Record<string, unknown>]>([
    [
      DemoClientId.public,
      {
        ...common,
        confidential: false,
        requiredRegionIds: [],
        grantTypes: [...common.grantTypes, 'urn:ietf:params:oauth:grant-type:device_code'],
      },
    ],
    [DemoClientId.confidential, { ...common, confidential: true, requiredRegionIds: [] }],
    [DemoClientId.regional, { ...common, confidential: false, requiredRegionIds: [R.Musterstadt] }],
  ])('%s is registered as described', async ([clientId, expected], { db }) => {
    const client = await db.em().findOneOrFail(OAuthClientEntity, { clientId });
    expect(client).toMatchObject(expected);
    expect(client.redirectUris).toEqual(['http://localhost:9999/callback']);
    if (!client.confidential) expect(client.secretHash).toBeNull();
  });

  it('keep the confidential secret as an HMAC with the development pepper', async ({ db }) => {
    const client = await db
      .em()
      .findOneOrFail(OAuthClientEntity, { clientId: DemoClientId.confidential });
    expect(client.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(DEMO_CLIENT_SECRET).toBe('demo-secret');
    expect(
      verifyClientSecret('demo-secret', client.secretHash!, DEVELOPMENT_CLIENT_SECRET_PEPPER),
    ).toBe(true);
    expect(verifyClientSecret('demo-secret', client.secretHash!, 'another pepper')).toBe(false);
    expect(
      verifyClientSecret('demo-secret ', client.secretHash!, DEVELOPMENT_CLIENT_SECRET_PEPPER),
    ).toBe(false);
  });
});

describe('the demo content', () => {
  it('alice manages a store of a chain, whose log has several action types in the last 6 months and one older entry', async ({
    db,
  }) => {
    const manager = await db
      .em()
      .findOneOrFail(
        StoreTeamMembershipEntity,
        { user: { email: DemoUserEmail.alice }, isManager: true },
        { populate: ['store'] },
      );
    expect(manager.store.$.chain).not.toBeNull();
    const entries = await db.em().find(StoreLogEntryEntity, { store: manager.store.id });
    const halfYearAgo = Date.now() - 6 * MONTH;
    const recent = entries.filter((entry) => entry.performedAt.getTime() > halfYearAgo);
    expect(new Set(recent.map((entry) => entry.actionType)).size).toBeGreaterThanOrEqual(5);
    expect(entries.length - recent.length).toBeGreaterThanOrEqual(1);
  });

  it('bob has a pending request with a message to join alice’s store', async ({ db }) => {
    const request = await db.em().findOneOrFail(StoreTeamMembershipEntity, {
      user: { email: DemoUserEmail.bob },
      status: StoreTeamStatus.Applied,
    });
    expect(request.applicationMessage?.length).toBeGreaterThan(10);
    expect(request.appliedAt).toBeInstanceOf(Date);
  });

  it('carla has a pending application to alice’s working group', async ({ db }) => {
    const application = await db.em().findOneOrFail(WorkGroupApplicationEntity, {
      user: { email: DemoUserEmail.carla },
    });
    expect(application.group.id).toBe(R.MusterstadtWorkGroup);
    expect(await adminOf(db, DemoUserEmail.alice)).toContain(application.group.id);
  });

  it('alice, bob and carla talk in a conversation with read and unread members', async ({ db }) => {
    const members = await db
      .em()
      .find(
        ConversationMemberEntity,
        { user: { email: DemoUserEmail.carla } },
        { populate: ['conversation'] },
      );
    const conversationId = members[0]!.conversation.id;
    const all = await db
      .em()
      .find(ConversationMemberEntity, { conversation: conversationId }, { populate: ['user'] });
    expect(all.map((member) => member.user.$.email).toSorted()).toEqual([
      DemoUserEmail.alice,
      DemoUserEmail.bob,
      DemoUserEmail.carla,
    ]);
    expect(new Set(all.map((member) => member.unread))).toEqual(new Set([true, false]));
    expect(await db.em().count(MessageEntity, { conversation: conversationId })).toBeGreaterThan(2);
  });

  it('the Musterstadt forum has a hidden post with its reason', async ({ db }) => {
    const posts = await db.em().find(ForumPostEntity, { thread: { region: R.Musterstadt } });
    const hidden = posts.filter((post) => post.hiddenAt !== null);
    expect(hidden).toHaveLength(1);
    expect(hidden[0]!.hideReason).toBeTruthy();
    expect(posts.length - hidden.length).toBeGreaterThan(2);
  });

  it('quizzes 1, 2 and 3 have questions and answers; carla passed quiz 1 and awaits confirmation', async ({
    db,
  }) => {
    const quizzes = await db
      .em()
      .find(QuizEntity, {}, { populate: ['questions'], orderBy: { id: 'asc' } });
    expect(quizzes.map((quiz) => quiz.id)).toEqual([1, 2, 3]);
    for (const quiz of quizzes) {
      expect(quiz.questions.length).toBeGreaterThanOrEqual(2);
      expect(
        await db.em().count(QuizAnswerEntity, { question: { quiz: quiz.id } }),
      ).toBeGreaterThan(3);
    }
    const sessions = await db
      .em()
      .find(
        QuizSessionEntity,
        { user: { email: DemoUserEmail.carla }, quiz: 1 },
        { orderBy: { startedAt: 'desc' } },
      );
    expect(sessions[0]).toMatchObject({ status: QuizSessionStatus.Passed, confirmedAt: null });
  });

  it('bob has been reported', async ({ db }) => {
    expect(
      await db.em().count(ReportEntity, { reported: { email: DemoUserEmail.bob } }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('bananas carry messages of at least 100 characters', async ({ db }) => {
    const bananas = await db.em().find(BananaEntity, {});
    expect(bananas.length).toBeGreaterThanOrEqual(3);
    for (const banana of bananas) expect(banana.message.length).toBeGreaterThanOrEqual(100);
  });

  it('alice has resources; the regions have food-share points, events with invitations, polls with votes', async ({
    db,
  }) => {
    expect(
      await db.em().count(ResourceEntity, { owner: { email: DemoUserEmail.alice } }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      await db.em().count(FoodSharePointEntity, { region: R.Musterstadt }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      await db.em().count(EventInvitationEntity, { event: { region: R.Musterstadt } }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      await db.em().count(PollVoteEntity, { poll: { region: R.Musterstadt } }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('alice reads mails in her mailboxes', async ({ db }) => {
    const mails = await db
      .em()
      .count(MailEntity, { mailbox: { members: { user: { email: DemoUserEmail.alice } } } });
    expect(mails).toBeGreaterThanOrEqual(2);
  });
});

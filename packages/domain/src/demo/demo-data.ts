import { createHash } from 'node:crypto';
import { ref } from '@mikro-orm/core';
import { DEVELOPMENT_CLIENT_SECRET_PEPPER, hashClientSecret } from '../accounts/client-secrets.ts';
import {
  insertOAuthClient,
  validateOAuthClientInput,
  type OAuthClientInput,
} from '../accounts/oauth-clients.service.ts';
import {
  addAdmin,
  addMembership,
  createRegion,
  type CreateRegionInput,
} from '../accounts/regions.service.ts';
import { createUser } from '../accounts/users.service.ts';
import { BananaEntity } from '../entities/banana.entity.ts';
import {
  ConversationEntity,
  ConversationMemberEntity,
  MessageEntity,
  type Conversation,
} from '../entities/conversation.entity.ts';
import { EventEntity, EventInvitationEntity } from '../entities/event.entity.ts';
import { FoodSharePointEntity } from '../entities/food-share-point.entity.ts';
import {
  ForumPostEntity,
  ForumThreadEntity,
  type ForumPost,
  type ForumThread,
} from '../entities/forum.entity.ts';
import { MailboxEntity, MailboxMemberEntity, MailEntity } from '../entities/mailbox.entity.ts';
import { OAuthClientEntity } from '../entities/oauth-client.entity.ts';
import { PassportGenerationEntity } from '../entities/passport-generation.entity.ts';
import { PollEntity, PollVoteEntity } from '../entities/poll.entity.ts';
import {
  QuizAnswerEntity,
  QuizEntity,
  QuizQuestionEntity,
  QuizSessionEntity,
} from '../entities/quiz.entity.ts';
import { RegionEntity, RegionOptionsEntity } from '../entities/region.entity.ts';
import { ReportEntity } from '../entities/report.entity.ts';
import { ResourceEntity } from '../entities/resource.entity.ts';
import { StoreChainEntity, StoreChainKamEntity } from '../entities/store-chain.entity.ts';
import { StoreLogEntryEntity } from '../entities/store-log-entry.entity.ts';
import { StoreEntity, StoreTeamMembershipEntity } from '../entities/store.entity.ts';
import { UploadEntity } from '../entities/upload.entity.ts';
import { BuddyEntity, UserEntity, type User } from '../entities/user.entity.ts';
import { WorkGroupApplicationEntity } from '../entities/work-group-application.entity.ts';
import {
  ApplyType,
  ChainStatus,
  CooperationStatus,
  QuizSessionStatus,
  RegionType,
  Role,
  StoreLogAction,
  StoreTeamStatus,
  WorkGroupFunction,
} from '../enums.ts';
import type { EntityManager } from '../orm.ts';
import { demoAvatarPng } from './demo-avatar.ts';
import {
  DEMO_CLIENT_SECRET,
  DEMO_PASSWORD,
  DEMO_REDIRECT_URI,
  DemoClientId,
  DemoRegionId,
  DemoUserEmail,
  type DemoDataIds,
  type DemoUserName,
} from './demo-ids.ts';

export interface DemoDataOptions {
  /** The moment the demo data is anchored at: logs, messages and events lie around it. */
  now?: Date;
  /** The pepper of client secret hashes; a deployment's CLIENT_SECRET_PEPPER. */
  clientSecretPepper?: string;
}

// Two loaders started at once (two processes starting on an empty database) queue on this lock
// instead of both inserting; the second then finds the data of the first.
const DEMO_DATA_LOCK = `select pg_advisory_xact_lock(hashtext('foodshare:demo-data'))`;

/**
 * Loads the demo data in one transaction. Refuses (and changes nothing) when any of its fixed
 * rows already exists: the demo users, units, quizzes or clients.
 */
export function loadDemoData(
  em: EntityManager,
  options: DemoDataOptions = {},
): Promise<DemoDataIds> {
  return em.transactional(async (tx) => {
    await tx.execute(DEMO_DATA_LOCK);
    await assertNoDemoRows(tx);
    return insertDemoData(tx, options);
  });
}

/** Loads the demo data when the database has no users at all; true when it loaded. */
export function loadDemoDataIfEmpty(
  em: EntityManager,
  options: DemoDataOptions = {},
): Promise<boolean> {
  return em.transactional(async (tx) => {
    await tx.execute(DEMO_DATA_LOCK);
    if ((await tx.count(UserEntity, {})) > 0) return false;
    await assertNoDemoRows(tx);
    await insertDemoData(tx, options);
    return true;
  });
}

async function assertNoDemoRows(em: EntityManager): Promise<void> {
  const conflicts: string[] = [];
  const users = await em.find(
    UserEntity,
    { email: { $in: Object.values(DemoUserEmail) } },
    { fields: ['email'] },
  );
  conflicts.push(...users.map((user) => `user ${user.email}`));
  const regions = await em.find(
    RegionEntity,
    { id: { $in: Object.values(DemoRegionId) } },
    { fields: ['id'] },
  );
  conflicts.push(...regions.map((region) => `region ${region.id}`));
  const quizzes = await em.find(QuizEntity, { id: { $in: [1, 2, 3] } }, { fields: ['id'] });
  conflicts.push(...quizzes.map((quiz) => `quiz ${quiz.id}`));
  const clients = await em.find(
    OAuthClientEntity,
    { clientId: { $in: Object.values(DemoClientId) } },
    { fields: ['clientId'] },
  );
  conflicts.push(...clients.map((client) => `OAuth client ${client.clientId}`));
  if (conflicts.length > 0) {
    const shown = conflicts.slice(0, 5).join(', ');
    const more = conflicts.length > 5 ? ` and ${conflicts.length - 5} more demo rows` : '';
    throw new Error(`The demo data cannot be loaded: the database already holds ${shown}${more}`);
  }
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function insertDemoData(em: EntityManager, options: DemoDataOptions): Promise<DemoDataIds> {
  const now = options.now ?? new Date();
  const ago = (days: number, hours = 0) => new Date(now.getTime() - days * DAY - hours * HOUR);
  const ahead = (days: number, hours = 0) => new Date(now.getTime() + days * DAY + hours * HOUR);

  await createUnits(em);
  const users = await createPeople(em, ago);
  const { alice, bob, carla, dana, kim } = users;
  const R = DemoRegionId;

  const avatar = demoAvatarPng([46, 125, 50]);
  const upload = em.create(UploadEntity, {
    id: '5e1f0d3a-7c52-4b8e-9a61-0d3e5f7a11ce',
    user: alice,
    mimeType: 'image/png',
    size: avatar.length,
    sha256: createHash('sha256').update(avatar).digest('hex'),
    content: avatar,
  });
  alice.avatarUpload = ref(upload);

  em.create(BuddyEntity, { user: alice, buddy: bob });
  em.create(BuddyEntity, { user: bob, buddy: alice });
  em.create(BuddyEntity, { user: alice, buddy: kim });
  em.create(BuddyEntity, { user: kim, buddy: alice });

  em.create(RegionOptionsEntity, {
    region: R.Musterstadt,
    enableReportButton: true,
    enableMediationButton: true,
    regionPickupRuleActive: true,
    regionPickupRuleTimespan: 7,
    regionPickupRuleLimit: 3,
    regionPickupRuleLimitDay: 1,
    regionPickupRuleInactive: 24,
    selectedReportReasonOptions: 2,
    enableReportReasonOther: true,
  });

  em.create(WorkGroupApplicationEntity, {
    group: R.MusterstadtWorkGroup,
    user: carla,
    message:
      'Hallo Alice, ich habe früher Plakate für den Sportverein gestaltet und würde gern bei der Öffentlichkeitsarbeit mithelfen.',
    appliedAt: ago(3),
  });

  // Forum: the store-chain group's thread is the chain's forum thread (DOMAIN-FACTS 11).
  const chainThread = thread(
    em,
    R.StoreChainGroup,
    'Beispiel-Markt: Gespräche mit der Zentrale',
    kim,
    [
      [
        kim,
        ago(40),
        'Die Zentrale ist offen für eine bundesweite Kooperation. Nächster Termin im Herbst.',
      ],
    ],
  );
  const chain = em.create(StoreChainEntity, {
    name: 'Beispiel-Markt',
    status: ChainStatus.Cooperating,
    headquartersZip: '12345',
    headquartersCity: 'Musterstadt',
    headquartersCountry: 'Deutschland',
    allowPress: true,
    forumThread: chainThread.thread,
    notes: 'Ansprechpartnerin in der Zentrale: Abteilung Nachhaltigkeit.',
    commonStoreInformation:
      'Abholungen nur über den Hintereingang. Bitte Kisten mitbringen und die Filialleitung grüßen.',
    estimatedStoreCount: 42,
    region: R.Musterstadt,
    modificationDate: ago(12),
  });
  em.create(StoreChainKamEntity, { chain, user: kim });

  const store = em.create(StoreEntity, {
    name: 'Beispiel-Markt Musterstadt Mitte',
    region: R.Musterstadt,
    chain,
    cooperationStatus: CooperationStatus.Cooperating,
    teamStatus: 2,
    street: 'Marktstraße 12',
    zip: '12345',
    city: 'Musterstadt',
    latitude: 52.3759,
    longitude: 9.732,
    createdAt: ago(400),
  });
  const otherStore = em.create(StoreEntity, {
    name: 'Bäckerei Korn',
    region: R.Beispieldorf,
    cooperationStatus: CooperationStatus.Cooperating,
    teamStatus: 1,
    street: 'Dorfplatz 2',
    zip: '12399',
    city: 'Beispieldorf',
    latitude: 52.4301,
    longitude: 9.8412,
    createdAt: ago(300),
  });
  const bobsApplication =
    'Hallo! Ich wohne in Beispieldorf und fahre jeden Samstag durch Musterstadt. Ich würde gern bei euch abholen.';
  em.create(StoreTeamMembershipEntity, {
    store,
    user: alice,
    status: StoreTeamStatus.Member,
    isManager: true,
    joinedAt: ago(250),
  });
  em.create(StoreTeamMembershipEntity, {
    store,
    user: kim,
    status: StoreTeamStatus.Member,
    appliedAt: ago(202),
    joinedAt: ago(200),
  });
  em.create(StoreTeamMembershipEntity, {
    store,
    user: dana,
    status: StoreTeamStatus.Standby,
    joinedAt: ago(60),
  });
  em.create(StoreTeamMembershipEntity, {
    store,
    user: bob,
    status: StoreTeamStatus.Applied,
    applicationMessage: bobsApplication,
    appliedAt: ago(2),
  });
  em.create(StoreTeamMembershipEntity, {
    store: otherStore,
    user: bob,
    status: StoreTeamStatus.Member,
    joinedAt: ago(90),
  });

  const log = (
    actionType: StoreLogAction,
    performedAt: Date,
    actor: User,
    target: User | null,
    extra: { dateReference?: Date; content?: string; reason?: string } = {},
  ) =>
    em.create(StoreLogEntryEntity, {
      store,
      actionType,
      actor,
      target,
      performedAt,
      dateReference: extra.dateReference ?? null,
      content: extra.content ?? null,
      reason: extra.reason ?? null,
    });
  // One entry lies beyond the six months the log may be read back (DOMAIN-FACTS 8).
  log(StoreLogAction.RequestApproved, ago(200), alice, kim);
  log(StoreLogAction.AppointedStoreManager, ago(150), dana, alice);
  log(StoreLogAction.AddedWithoutRequest, ago(60), alice, dana);
  log(StoreLogAction.MovedToStandby, ago(30), alice, dana, {
    reason: 'Auf eigenen Wunsch bis nach dem Umzug.',
  });
  log(StoreLogAction.RemovedFromSlot, ago(20), alice, kim, {
    dateReference: ago(18, -18),
    reason: 'Doppelt eingetragen.',
  });
  log(StoreLogAction.SignedUpForSlot, ago(10), kim, kim, { dateReference: ahead(3, 18) });
  log(StoreLogAction.SlotConfirmed, ago(9), alice, kim, { dateReference: ahead(3, 18) });
  log(StoreLogAction.DeletedFromWall, ago(5), alice, null, {
    content: 'Wer hat meine blaue Kiste mitgenommen?',
  });
  log(StoreLogAction.RequestToJoin, ago(2), bob, bob, { content: bobsApplication });
  em.create(StoreLogEntryEntity, {
    store: otherStore,
    actionType: StoreLogAction.AddedWithoutRequest,
    actor: dana,
    target: bob,
    performedAt: ago(90),
  });

  const conversation = em.create(ConversationEntity, {
    name: 'Abholung Samstag',
    createdAt: ago(4),
  });
  const messages: [User, Date, string][] = [
    [
      alice,
      ago(3, 4),
      'Hallo Bob, hallo Carla! Wer kann am Samstag bei der Abholung im Beispiel-Markt helfen?',
    ],
    [bob, ago(3, 2), 'Ich kann ab 18 Uhr, vorher bin ich noch in Beispieldorf unterwegs.'],
    [carla, ago(2, 5), 'Ich komme gern mit, sobald mein Quiz bestätigt ist!'],
    [alice, ago(1, 3), 'Prima, dann treffen wir uns um 18:15 Uhr am Hintereingang.'],
  ];
  for (const [author, sentAt, body] of messages) {
    em.create(MessageEntity, { conversation, author, body, sentAt });
  }
  // alice has read everything; bob read up to his own reply; carla has not opened it since.
  member(em, conversation, alice, { unread: false, lastReadAt: ago(1, 3), joinedAt: ago(4) });
  member(em, conversation, bob, { unread: true, lastReadAt: ago(3, 2), joinedAt: ago(4) });
  member(em, conversation, carla, { unread: true, lastReadAt: null, joinedAt: ago(4) });

  const kamChat = em.create(ConversationEntity, { createdAt: ago(15) });
  em.create(MessageEntity, {
    conversation: kamChat,
    author: kim,
    body: 'Die Zentrale von Beispiel-Markt hat geantwortet: Eure Filiale darf auch sonntags abgeholt werden.',
    sentAt: ago(14),
  });
  em.create(MessageEntity, {
    conversation: kamChat,
    author: alice,
    body: 'Super, danke! Ich trage die Sonntage in den Kalender ein.',
    sentAt: ago(13),
  });
  member(em, kamChat, alice, { unread: false, lastReadAt: ago(13), joinedAt: ago(15) });
  member(em, kamChat, kim, { unread: false, lastReadAt: ago(13), joinedAt: ago(15) });

  thread(
    em,
    R.Musterstadt,
    'Willkommen in Musterstadt!',
    dana,
    [
      [dana, ago(30), 'Schön, dass ihr da seid! Hier stellen sich neue Foodsharer vor.'],
      [carla, ago(2), 'Hallo zusammen, ich bin Carla und wohne in der Altstadt.'],
    ],
    { pinnedLevel: 1 },
  );
  const experiences = thread(
    em,
    R.Musterstadt,
    'Erfahrungen mit der Abholung im Beispiel-Markt',
    alice,
    [
      [alice, ago(10), 'Wie klappt es bei euch mit den Abholungen am Abend?'],
      [kim, ago(9), 'Gut! Die Filialleitung legt die Kisten inzwischen schon bereit.'],
      [carla, ago(8), 'Ruft einfach Frau M. direkt an, ihre Nummer ist 0151 2345678.'],
      [alice, ago(7), 'Bitte keine privaten Nummern im Forum, danke!'],
    ],
  );
  const hiddenPost = experiences.posts[2]!;
  // Phone numbers of store staff are personal data: the ambassador hid the post.
  hiddenPost.hiddenAt = ago(7, 2);
  hiddenPost.hiddenBy = ref(dana);
  hiddenPost.hideReason = 'Enthält die private Telefonnummer einer Mitarbeiterin.';
  thread(
    em,
    R.Musterstadt,
    'Botschafterrunde: Planung Stammtisch',
    dana,
    [[dana, ago(5), 'Sollen wir den Stammtisch auf Donnerstag verlegen? Ich mache eine Umfrage.']],
    { isAmbassadorForum: true },
  );
  thread(em, R.Beispieldorf, 'Fairteiler im Dorfgemeinschaftshaus braucht Paten', bob, [
    [bob, ago(6), 'Wer kann sich abwechselnd mit mir um den Fairteiler kümmern?'],
  ]);

  createQuizzes(em);
  const session = (
    user: User,
    quiz: number,
    status: QuizSessionStatus,
    startedAt: Date,
    confirmed: boolean,
  ) =>
    em.create(QuizSessionEntity, {
      user,
      quiz,
      status,
      startedAt,
      finishedAt: new Date(startedAt.getTime() + 20 * 60_000),
      confirmedAt: confirmed ? new Date(startedAt.getTime() + 25 * 60_000) : null,
    });
  session(alice, 1, QuizSessionStatus.Passed, ago(400), true);
  session(alice, 2, QuizSessionStatus.Passed, ago(260), true);
  session(bob, 1, QuizSessionStatus.Passed, ago(120), true);
  session(kim, 1, QuizSessionStatus.Passed, ago(500), true);
  session(kim, 2, QuizSessionStatus.Passed, ago(450), true);
  session(dana, 1, QuizSessionStatus.Passed, ago(700), true);
  session(dana, 2, QuizSessionStatus.Passed, ago(650), true);
  session(dana, 3, QuizSessionStatus.Passed, ago(600), true);
  // carla failed once, then passed: the passed session awaits her confirmation (SPEC row 5).
  session(carla, 1, QuizSessionStatus.Failed, ago(40), false);
  session(carla, 1, QuizSessionStatus.Passed, ago(2), false);

  em.create(ReportEntity, {
    reporter: alice,
    reported: bob,
    store,
    reason: 'Unzuverlässig bei Abholungen',
    message:
      'Bob hat sich zweimal für eine Abholung eingetragen und ist ohne Absage nicht erschienen. Die Filiale musste die Ware wegwerfen.',
    status: 'in_progress',
    consequence: 'warning',
    reportedAt: ago(20),
    reminderAt: ahead(10),
    reportedRegion: R.Beispieldorf,
  });
  em.create(ReportEntity, {
    reporter: dana,
    reported: bob,
    reason: 'Umgangston',
    message: 'Bob war beim letzten Treffen am Fairteiler unfreundlich zu einer neuen Foodsharerin.',
    status: 'to_do',
    reportedAt: ago(3),
    reportedRegion: R.Beispieldorf,
  });

  const banana = (sender: User, recipient: User, createdAt: Date, message: string) =>
    em.create(BananaEntity, { sender, recipient, message, createdAt });
  banana(
    alice,
    bob,
    ago(50),
    'Danke, Bob, dass du letzte Woche so spontan für mich eingesprungen bist. Ohne dich wäre die ganze Ware im Müll gelandet!',
  );
  banana(
    kim,
    alice,
    ago(35),
    'Alice hält das Team im Beispiel-Markt zusammen: immer freundlich, immer pünktlich und mit einem offenen Ohr für die Filiale.',
  );
  banana(
    dana,
    alice,
    ago(25),
    'Vielen Dank für die tolle Öffentlichkeitsarbeit beim Stadtfest. Dank dir haben sich zwölf neue Foodsharer in Musterstadt gemeldet!',
  );
  banana(
    bob,
    alice,
    ago(12),
    'Danke für die geduldige Einarbeitung bei meiner ersten Abholung. Ich habe mich vom ersten Moment an willkommen gefühlt.',
  );

  em.create(ResourceEntity, {
    owner: alice,
    region: R.Musterstadt,
    name: 'Lastenrad',
    description: 'Für große Abholungen, mit zwei Kisten. Bitte einen Tag vorher fragen.',
    openness: 3,
    isFavorite: true,
    createdAt: ago(80),
  });
  em.create(ResourceEntity, {
    owner: alice,
    region: R.Musterstadt,
    name: 'Kühlbox',
    description: '40 Liter, mit Kühlakkus. Nur für Freunde.',
    openness: 2,
    isPrivate: true,
    createdAt: ago(60),
  });
  em.create(ResourceEntity, {
    owner: alice,
    region: R.Musterstadt,
    name: 'Einkochtopf',
    description: 'Zum Einkochen geretteter Tomaten und Früchte.',
    openness: 5,
    createdAt: ago(45),
  });
  em.create(ResourceEntity, {
    owner: bob,
    region: R.Beispieldorf,
    name: 'Bollerwagen',
    description: 'Steht im Dorfgemeinschaftshaus.',
    openness: 4,
    createdAt: ago(70),
  });

  em.create(FoodSharePointEntity, {
    name: 'Fairteiler Marktplatz',
    region: R.Musterstadt,
    street: 'Marktplatz 1',
    zip: '12345',
    city: 'Musterstadt',
    latitude: 52.3745,
    longitude: 9.7385,
    createdAt: ago(600),
  });
  em.create(FoodSharePointEntity, {
    name: 'Fairteiler Bahnhof',
    region: R.Musterstadt,
    street: 'Bahnhofstraße 5',
    zip: '12345',
    city: 'Musterstadt',
    latitude: 52.3771,
    longitude: 9.7412,
    createdAt: ago(300),
  });
  em.create(FoodSharePointEntity, {
    name: 'Fairteiler Dorfgemeinschaftshaus',
    region: R.Beispieldorf,
    street: 'Dorfplatz 1',
    zip: '12399',
    city: 'Beispieldorf',
    latitude: 52.4298,
    longitude: 9.8409,
    createdAt: ago(200),
  });

  const event = (
    region: number,
    name: string,
    start: Date,
    hours: number,
    location: { name: string; online: boolean },
    invitations: [User, 'invited' | 'accepted' | 'maybe' | 'wont_join'][],
  ) => {
    const created = em.create(EventEntity, {
      region,
      name,
      description: `${name}: alle sind herzlich eingeladen.`,
      locationName: location.name,
      locationType: location.online ? 1 : 0,
      startAt: start,
      endAt: new Date(start.getTime() + hours * HOUR),
      createdAt: ago(20),
    });
    for (const [user, status] of invitations) {
      em.create(EventInvitationEntity, { event: created, user, status });
    }
  };
  event(
    R.Musterstadt,
    'Stammtisch Musterstadt',
    ahead(7, 19),
    2,
    { name: 'Café Mitte, Marktplatz 3', online: false },
    [
      [alice, 'accepted'],
      [carla, 'invited'],
      [dana, 'maybe'],
      [kim, 'wont_join'],
    ],
  );
  event(
    R.Musterstadt,
    'Online-Einführung für neue Foodsharer',
    ahead(14, 18),
    1.5,
    { name: 'Videokonferenz', online: true },
    [
      [carla, 'accepted'],
      [dana, 'accepted'],
    ],
  );
  event(
    R.Beispieldorf,
    'Erntedankfest am Fairteiler',
    ahead(21, 14),
    4,
    { name: 'Dorfgemeinschaftshaus', online: false },
    [[bob, 'accepted']],
  );

  const poll = (region: number, name: string, startAt: Date, endAt: Date, voters: User[]) => {
    const created = em.create(PollEntity, {
      region,
      name,
      description: `${name}: bitte bis zum Ende der Abstimmung teilnehmen.`,
      startAt,
      endAt,
      createdAt: startAt,
    });
    for (const user of voters) {
      em.create(PollVoteEntity, {
        poll: created,
        user,
        votedAt: new Date(startAt.getTime() + DAY),
      });
    }
  };
  poll(R.Musterstadt, 'Neuer Wochentag für den Stammtisch', ago(2), ahead(5), [alice, dana]);
  poll(R.Musterstadt, 'Logo für die Öffentlichkeitsarbeit', ago(44), ago(30), [alice, carla]);
  poll(R.Beispieldorf, 'Putzplan für den Fairteiler', ago(1, 2), ahead(6), [bob]);

  const mailbox = (name: string, region: number | null, members: User[]) => {
    const created = em.create(MailboxEntity, { name, region });
    for (const user of members) em.create(MailboxMemberEntity, { mailbox: created, user });
    return created;
  };
  const aliceBox = mailbox('alice.mustermann', null, [alice]);
  const cityBox = mailbox('musterstadt', R.Musterstadt, [dana]);
  const groupBox = mailbox('oeffentlichkeitsarbeit.musterstadt', R.MusterstadtWorkGroup, [alice]);
  mailbox('beispieldorf', R.Beispieldorf, []);
  em.create(MailEntity, {
    mailbox: aliceBox,
    folder: 1,
    senderMail: 'nachhaltigkeit@beispiel-markt.example',
    senderName: 'Beispiel-Markt Zentrale',
    recipientMail: 'alice.mustermann@foodsharing.example',
    recipientName: 'Alice Mustermann',
    subject: 'Rückfrage zu den Abholzeiten',
    body: 'Könnten die Abholungen künftig schon um 17:30 Uhr beginnen?',
    sentAt: ago(4),
  });
  em.create(MailEntity, {
    mailbox: groupBox,
    folder: 2,
    senderMail: 'oeffentlichkeitsarbeit.musterstadt@foodsharing.example',
    senderName: 'Öffentlichkeitsarbeit Musterstadt',
    recipientMail: 'redaktion@musterstadt-zeitung.example, foto@musterstadt-zeitung.example',
    recipientName: 'Redaktion Musterstädter Zeitung',
    recipientCount: 2,
    subject: 'Pressetermin am neuen Fairteiler',
    body: 'Anbei das Programm und zwei Fotos vom Fairteiler am Bahnhof.',
    hasAttachments: true,
    sentAt: ago(6),
  });
  em.create(MailEntity, {
    mailbox: cityBox,
    folder: 1,
    senderMail: 'buergerbuero@musterstadt.example',
    senderName: 'Bürgerbüro Musterstadt',
    recipientMail: 'musterstadt@foodsharing.example',
    subject: 'Anfrage: Fairteiler am Rathaus',
    body: 'Die Stadt würde gern einen weiteren Fairteiler am Rathaus aufstellen.',
    sentAt: ago(8),
  });

  em.create(PassportGenerationEntity, { user: alice, generatedBy: alice, createdAt: ago(100) });

  await em.flush();
  await createDemoClients(em, options.clientSecretPepper ?? DEVELOPMENT_CLIENT_SECRET_PEPPER);

  return {
    users: Object.fromEntries(
      Object.entries(users).map(([name, user]) => [name, user.id]),
    ) as Record<DemoUserName, number>,
    storeId: store.id,
    otherStoreId: otherStore.id,
    chainId: chain.id,
    conversationId: conversation.id,
    forumThreadId: experiences.thread.id,
    hiddenPostId: hiddenPost.id,
    visiblePostId: experiences.posts[0]!.id,
    avatarUploadId: upload.id,
  };
}

async function createUnits(em: EntityManager): Promise<void> {
  const R = DemoRegionId;
  const units: CreateRegionInput[] = [
    { id: R.Germany, name: 'Deutschland', type: RegionType.Country, timezone: 'Europe/Berlin' },
    { id: R.FederalState, name: 'Musterland', type: RegionType.FederalState, parentId: R.Germany },
    {
      id: R.Musterstadt,
      name: 'Musterstadt',
      type: RegionType.City,
      parentId: R.FederalState,
      mailbox: 'musterstadt',
      emailName: 'Foodsharing Musterstadt',
      allowHidingInForum: true,
    },
    {
      id: R.Beispieldorf,
      name: 'Beispieldorf',
      type: RegionType.City,
      parentId: R.FederalState,
      mailbox: 'beispieldorf',
      emailName: 'Foodsharing Beispieldorf',
    },
    {
      id: R.MusterstadtWorkGroup,
      name: 'Öffentlichkeitsarbeit Musterstadt',
      type: RegionType.WorkingGroup,
      parentId: R.Musterstadt,
      workgroupFunction: WorkGroupFunction.PublicRelations,
      applyType: ApplyType.ByApplication,
      mailbox: 'oeffentlichkeitsarbeit.musterstadt',
      emailName: 'Öffentlichkeitsarbeit Musterstadt',
    },
    {
      id: R.GlobalWorkingGroups,
      name: 'Bundesweite Arbeitsgruppen',
      type: RegionType.WorkingGroup,
      parentId: R.Germany,
      applyType: ApplyType.Nobody,
    },
    {
      id: R.StoreChainGroup,
      name: 'Betriebsketten',
      type: RegionType.WorkingGroup,
      parentId: R.GlobalWorkingGroups,
    },
    {
      id: R.ItSupport,
      name: 'IT-Support',
      type: RegionType.WorkingGroup,
      parentId: R.GlobalWorkingGroups,
    },
    {
      id: R.QuizGroup,
      name: 'Quiz',
      type: RegionType.WorkingGroup,
      parentId: R.GlobalWorkingGroups,
    },
    {
      id: R.OAuthClientAdministration,
      name: 'OAuth-Client-Verwaltung',
      type: RegionType.WorkingGroup,
      parentId: R.GlobalWorkingGroups,
      applyType: ApplyType.Nobody,
    },
  ];
  for (const unit of units) await createRegion(em, unit);
}

interface PersonSpec {
  firstName: string;
  lastName: string;
  role: Role;
  verified: boolean;
  homeRegionId: number | null;
  address?: { street: string; zip: string; city: string; latitude: number; longitude: number };
  mobile?: string;
}

const PEOPLE: Record<DemoUserName, PersonSpec> = {
  orga: {
    firstName: 'Olga',
    lastName: 'Orgel',
    role: Role.Orga,
    verified: true,
    homeRegionId: null,
  },
  alice: {
    firstName: 'Alice',
    lastName: 'Mustermann',
    role: Role.StoreManager,
    verified: true,
    homeRegionId: DemoRegionId.Musterstadt,
    address: {
      street: 'Lindenallee 4',
      zip: '12345',
      city: 'Musterstadt',
      latitude: 52.3731,
      longitude: 9.7356,
    },
    mobile: '+49 151 00000001',
  },
  bob: {
    firstName: 'Bob',
    lastName: 'Beispiel',
    role: Role.Foodsaver,
    verified: true,
    homeRegionId: DemoRegionId.Beispieldorf,
    address: {
      street: 'Feldweg 7',
      zip: '12399',
      city: 'Beispieldorf',
      latitude: 52.4312,
      longitude: 9.8437,
    },
  },
  carla: {
    firstName: 'Carla',
    lastName: 'Neumann',
    role: Role.Foodsharer,
    verified: false,
    homeRegionId: DemoRegionId.Musterstadt,
  },
  dana: {
    firstName: 'Dana',
    lastName: 'Berger',
    role: Role.Ambassador,
    verified: true,
    homeRegionId: DemoRegionId.Musterstadt,
    address: {
      street: 'Schulstraße 9',
      zip: '12345',
      city: 'Musterstadt',
      latitude: 52.3702,
      longitude: 9.7298,
    },
  },
  kim: {
    firstName: 'Kim',
    lastName: 'Kettner',
    role: Role.StoreManager,
    verified: true,
    homeRegionId: DemoRegionId.Musterstadt,
    address: {
      street: 'Am Hafen 1',
      zip: '12345',
      city: 'Musterstadt',
      latitude: 52.3812,
      longitude: 9.7501,
    },
  },
};

async function createPeople(
  em: EntityManager,
  ago: (days: number) => Date,
): Promise<Record<DemoUserName, User>> {
  const users = {} as Record<DemoUserName, User>;
  for (const name of Object.keys(PEOPLE) as DemoUserName[]) {
    const spec = PEOPLE[name];
    const user = await createUser(em, {
      firstName: spec.firstName,
      lastName: spec.lastName,
      email: DemoUserEmail[name],
      password: DEMO_PASSWORD,
      role: spec.role,
      verified: spec.verified,
      homeRegionId: spec.homeRegionId,
    });
    Object.assign(user, spec.address ?? {});
    user.mobile = spec.mobile ?? null;
    user.privacyNoticeAcceptedAt = ago(365);
    users[name] = user;
  }
  const R = DemoRegionId;
  await addAdmin(em, users.orga.id, R.OAuthClientAdministration);
  await addAdmin(em, users.orga.id, R.ItSupport);
  await addAdmin(em, users.alice.id, R.MusterstadtWorkGroup);
  await addAdmin(em, users.dana.id, R.Musterstadt);
  await addMembership(em, users.kim.id, R.StoreChainGroup);
  return users;
}

function member(
  em: EntityManager,
  conversation: Conversation,
  user: User,
  state: { unread: boolean; lastReadAt: Date | null; joinedAt: Date },
): void {
  em.create(ConversationMemberEntity, { conversation, user, ...state });
}

function thread(
  em: EntityManager,
  region: number,
  title: string,
  author: User,
  posts: [User, Date, string][],
  flags: { pinnedLevel?: number; isAmbassadorForum?: boolean } = {},
): { thread: ForumThread; posts: ForumPost[] } {
  const first = posts[0]?.[1] ?? new Date();
  const last = posts.at(-1)?.[1] ?? first;
  const created = em.create(ForumThreadEntity, {
    region,
    title,
    author,
    createdAt: first,
    lastPostAt: last,
    ...flags,
  });
  return {
    thread: created,
    posts: posts.map(([postAuthor, createdAt, body]) =>
      em.create(ForumPostEntity, { thread: created, author: postAuthor, body, createdAt }),
    ),
  };
}

interface QuizSpec {
  id: number;
  name: string;
  grantedRole: Role;
  questions: { text: string; answers: [text: string, isRight: boolean, explanation?: string][] }[];
}

const QUIZZES: QuizSpec[] = [
  {
    id: 1,
    name: 'Foodsaver-Quiz',
    grantedRole: Role.Foodsaver,
    questions: [
      {
        text: 'Was machst du, wenn bei einer Abholung mehr Lebensmittel übrig sind, als du selbst verwerten kannst?',
        answers: [
          [
            'Ich gebe sie an andere Foodsaver, an einen Fairteiler oder an Bedürftige weiter.',
            true,
          ],
          [
            'Ich werfe den Rest in die Mülltonne des Betriebs.',
            false,
            'Genau das wollen wir vermeiden.',
          ],
          [
            'Ich lasse sie im Laden stehen.',
            false,
            'Der Betrieb verlässt sich darauf, dass alles mitgenommen wird.',
          ],
        ],
      },
      {
        text: 'Darfst du gerettete Lebensmittel verkaufen?',
        answers: [
          ['Nein, gerettete Lebensmittel werden immer kostenlos weitergegeben.', true],
          ['Ja, zum halben Preis.', false, 'Gerettete Lebensmittel sind nie eine Einnahmequelle.'],
          ['Nur an Freunde und Familie.', false],
        ],
      },
      {
        text: 'Du kannst einen eingetragenen Abholtermin nicht wahrnehmen. Was tust du?',
        answers: [
          ['Ich trage mich so früh wie möglich aus und sage dem Team Bescheid.', true],
          [
            'Nichts, es wird schon jemand anderes kommen.',
            false,
            'Unzuverlässigkeit gefährdet die Kooperation.',
          ],
        ],
      },
    ],
  },
  {
    id: 2,
    name: 'Betriebsverantwortlichen-Quiz',
    grantedRole: Role.StoreManager,
    questions: [
      {
        text: 'Wer darf neue Mitglieder ins Abholteam aufnehmen?',
        answers: [
          ['Die Betriebsverantwortlichen des Betriebs.', true],
          ['Jedes Teammitglied.', false],
          ['Die Filialleitung des Supermarkts.', false, 'Das Team organisiert sich selbst.'],
        ],
      },
      {
        text: 'Wie oft solltest du mit dem Betrieb Rücksprache halten?',
        answers: [
          ['Regelmäßig, und immer wenn sich etwas an den Abholungen ändert.', true],
          ['Nur beim ersten Gespräch.', false],
        ],
      },
    ],
  },
  {
    id: 3,
    name: 'Botschafter-Quiz',
    grantedRole: Role.Ambassador,
    questions: [
      {
        text: 'Was gehört zu den Aufgaben einer Botschafterin?',
        answers: [
          ['Neue Foodsaver begleiten und den Bezirk nach außen vertreten.', true],
          [
            'Allein über alle Betriebe entscheiden.',
            false,
            'Botschafter arbeiten mit den Teams zusammen.',
          ],
        ],
      },
      {
        text: 'Eine Meldung über ein Bezirksmitglied geht ein. Was tust du?',
        answers: [
          [
            'Ich leite sie an die zuständige Meldegruppe weiter und behandle sie vertraulich.',
            true,
          ],
          ['Ich poste sie im Bezirksforum.', false],
        ],
      },
    ],
  },
];

function createQuizzes(em: EntityManager): void {
  for (const spec of QUIZZES) {
    const quiz = em.create(QuizEntity, {
      id: spec.id,
      name: spec.name,
      grantedRole: spec.grantedRole,
    });
    for (const question of spec.questions) {
      const created = em.create(QuizQuestionEntity, { quiz, text: question.text });
      for (const [text, isRight, explanation] of question.answers) {
        em.create(QuizAnswerEntity, {
          question: created,
          text,
          isRight,
          explanation: explanation ?? null,
        });
      }
    }
  }
}

async function createDemoClients(em: EntityManager, pepper: string): Promise<void> {
  const common = {
    redirectUris: [DEMO_REDIRECT_URI],
    scopes: ['openid', 'profile', 'email', 'regions'],
    grantTypes: ['authorization_code', 'refresh_token'],
  } satisfies Partial<OAuthClientInput>;
  const clients: [OAuthClientInput, secret: string | null][] = [
    [
      {
        ...common,
        clientId: DemoClientId.public,
        name: 'Demo-App (öffentlich)',
        confidential: false,
      },
      null,
    ],
    [
      {
        ...common,
        clientId: DemoClientId.confidential,
        name: 'Demo-Server (vertraulich)',
        confidential: true,
      },
      DEMO_CLIENT_SECRET,
    ],
    [
      {
        ...common,
        clientId: DemoClientId.regional,
        name: 'Demo-App Musterstadt',
        confidential: false,
        requiredRegionIds: [DemoRegionId.Musterstadt],
      },
      null,
    ],
  ];
  for (const [input, secret] of clients) {
    const settings = validateOAuthClientInput(input);
    await insertOAuthClient(
      em,
      settings,
      secret === null ? null : hashClientSecret(secret, pepper),
      null,
    );
  }
}

import { DEVELOPMENT_CLIENT_SECRET_PEPPER } from '../oauth-clients/client-secrets.ts';
import { OAuthClientEntity } from '../entities/oauth-client.entity.ts';
import { QuizEntity } from '../entities/quiz.entity.ts';
import { RegionEntity } from '../entities/region.entity.ts';
import { UserEntity } from '../entities/user.entity.ts';
import type { EntityManager } from '../db/orm.ts';
import { createDemoClients } from './demo-clients.ts';
import { demoClock } from './demo-clock.ts';
import { createCommunity } from './demo-community.ts';
import { createConversations } from './demo-conversations.ts';
import { createForum } from './demo-forum.ts';
import {
  DemoClientId,
  DemoRegionId,
  DemoUserEmail,
  type DemoDataIds,
  type DemoUserName,
} from './demo-ids.ts';
import { createPeople } from './demo-people.ts';
import { createQuizzes, DEMO_QUIZ_IDS } from './demo-quizzes.ts';
import { createReportsAndBananas } from './demo-reports-and-bananas.ts';
import { createStores } from './demo-stores.ts';
import { createUnits } from './demo-units.ts';

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
    { fields: ['email'], orderBy: { id: 'asc' } },
  );
  conflicts.push(...users.map((user) => `user ${user.email}`));
  const regions = await em.find(
    RegionEntity,
    { id: { $in: Object.values(DemoRegionId) } },
    { fields: ['id'], orderBy: { id: 'asc' } },
  );
  conflicts.push(...regions.map((region) => `region ${region.id}`));
  const quizzes = await em.find(QuizEntity, { id: { $in: DEMO_QUIZ_IDS } }, { fields: ['id'] });
  conflicts.push(...quizzes.map((quiz) => `quiz ${quiz.id}`));
  const clients = await em.find(
    OAuthClientEntity,
    { clientId: { $in: Object.values(DemoClientId) } },
    { fields: ['clientId'], orderBy: { clientId: 'asc' } },
  );
  conflicts.push(...clients.map((client) => `OAuth client ${client.clientId}`));
  if (conflicts.length > 0) {
    const shown = conflicts.slice(0, 5).join(', ');
    const more = conflicts.length > 5 ? ` and ${conflicts.length - 5} more demo rows` : '';
    throw new Error(`The demo data cannot be loaded: the database already holds ${shown}${more}`);
  }
}

async function insertDemoData(em: EntityManager, options: DemoDataOptions): Promise<DemoDataIds> {
  const clock = demoClock(options.now ?? new Date());

  // The account services behind units and people flush as they go; the rest waits for one flush.
  await createUnits(em);
  const { users, avatarUpload } = await createPeople(em, clock);
  // Before the forum: the chain's forum thread takes the first thread id.
  const { chain, store, otherStore } = createStores(em, clock, users);
  const conversation = createConversations(em, clock, users);
  const forum = createForum(em, clock, users);
  createQuizzes(em, clock, users);
  createReportsAndBananas(em, clock, users, store);
  createCommunity(em, clock, users);
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
    forumThreadId: forum.experiences.thread.id,
    hiddenPostId: forum.hiddenPost.id,
    visiblePostId: forum.experiences.posts[0]!.id,
    avatarUploadId: avatarUpload.id,
  };
}

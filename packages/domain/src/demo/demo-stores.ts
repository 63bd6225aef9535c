import { StoreChainEntity, StoreChainKamEntity } from '../entities/store-chain.entity.ts';
import { StoreLogEntryEntity } from '../entities/store-log-entry.entity.ts';
import { StoreEntity, StoreTeamMembershipEntity } from '../entities/store.entity.ts';
import type { UserEntity } from '../entities/user.entity.ts';
import { ChainStatus, CooperationStatus, StoreLogAction, StoreTeamStatus } from '../enums.ts';
import type { EntityManager } from '../db/orm.ts';
import type { DemoClock } from './demo-clock.ts';
import { createThread } from './demo-forum.ts';
import { DemoRegionId } from './demo-ids.ts';
import type { DemoUsers } from './demo-people.ts';

export interface DemoStores {
  chain: StoreChainEntity;
  /** alice's store in Musterstadt, part of the chain. */
  store: StoreEntity;
  /** bob's store in Beispieldorf. */
  otherStore: StoreEntity;
}

const BOBS_APPLICATION =
  'Hallo! Ich wohne in Beispieldorf und fahre jeden Samstag durch Musterstadt. Ich würde gern bei euch abholen.';

/**
 * The demo chain with its key account manager, its two stores with their teams and team
 * requests, and the log of alice's store.
 */
export function createStores(em: EntityManager, clock: DemoClock, users: DemoUsers): DemoStores {
  const chain = createChain(em, clock, users.kim);
  const { store, otherStore } = createStoreRows(em, clock, chain);
  createTeams(em, clock, users, store, otherStore);
  createStoreLog(em, clock, users, store, otherStore);
  return { chain, store, otherStore };
}

function createChain(em: EntityManager, clock: DemoClock, kam: UserEntity): StoreChainEntity {
  // The store-chain group's thread is the chain's forum thread (docs/domain.md §3.11).
  const chainThread = createThread(
    em,
    DemoRegionId.StoreChainGroup,
    'Beispiel-Markt: Gespräche mit der Zentrale',
    kam,
    [
      [
        kam,
        clock.ago(40),
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
    region: DemoRegionId.Musterstadt,
    modificationDate: clock.ago(12),
  });
  em.create(StoreChainKamEntity, { chain, user: kam });
  return chain;
}

function createStoreRows(
  em: EntityManager,
  clock: DemoClock,
  chain: StoreChainEntity,
): { store: StoreEntity; otherStore: StoreEntity } {
  const store = em.create(StoreEntity, {
    name: 'Beispiel-Markt Musterstadt Mitte',
    region: DemoRegionId.Musterstadt,
    chain,
    cooperationStatus: CooperationStatus.Cooperating,
    teamStatus: 2,
    street: 'Marktstraße 12',
    zip: '12345',
    city: 'Musterstadt',
    latitude: 52.3759,
    longitude: 9.732,
    createdAt: clock.ago(400),
  });
  const otherStore = em.create(StoreEntity, {
    name: 'Bäckerei Korn',
    region: DemoRegionId.Beispieldorf,
    cooperationStatus: CooperationStatus.Cooperating,
    teamStatus: 1,
    street: 'Dorfplatz 2',
    zip: '12399',
    city: 'Beispieldorf',
    latitude: 52.4301,
    longitude: 9.8412,
    createdAt: clock.ago(300),
  });
  return { store, otherStore };
}

function createTeams(
  em: EntityManager,
  clock: DemoClock,
  users: DemoUsers,
  store: StoreEntity,
  otherStore: StoreEntity,
): void {
  const { alice, bob, dana, kim } = users;
  const { ago } = clock;
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
    applicationMessage: BOBS_APPLICATION,
    appliedAt: ago(2),
  });
  em.create(StoreTeamMembershipEntity, {
    store: otherStore,
    user: bob,
    status: StoreTeamStatus.Member,
    joinedAt: ago(90),
  });
}

function createStoreLog(
  em: EntityManager,
  clock: DemoClock,
  users: DemoUsers,
  store: StoreEntity,
  otherStore: StoreEntity,
): void {
  const { alice, bob, dana, kim } = users;
  const { ago, ahead } = clock;
  const log = (
    actionType: StoreLogAction,
    performedAt: Date,
    actor: UserEntity,
    target: UserEntity | null,
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
  // One entry lies beyond the six months the log may be read back (docs/domain.md §3.8).
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
  log(StoreLogAction.RequestToJoin, ago(2), bob, bob, { content: BOBS_APPLICATION });
  em.create(StoreLogEntryEntity, {
    store: otherStore,
    actionType: StoreLogAction.AddedWithoutRequest,
    actor: dana,
    target: bob,
    performedAt: ago(90),
  });
}

import { EventEntity, EventInvitationEntity } from '../entities/event.entity.ts';
import { FoodSharePointEntity } from '../entities/food-share-point.entity.ts';
import { MailboxEntity, MailboxMemberEntity, MailEntity } from '../entities/mailbox.entity.ts';
import { PollEntity, PollVoteEntity } from '../entities/poll.entity.ts';
import { ResourceEntity } from '../entities/resource.entity.ts';
import type { UserEntity } from '../entities/user.entity.ts';
import type { EntityManager } from '../db/orm.ts';
import { DAY, HOUR, type DemoClock } from './demo-clock.ts';
import { DemoRegionId } from './demo-ids.ts';
import type { DemoUsers } from './demo-people.ts';

const R = DemoRegionId;

/** What the regions share beyond stores: resources, food-share points, events, polls and mail. */
export function createCommunity(em: EntityManager, clock: DemoClock, users: DemoUsers): void {
  createResources(em, clock, users);
  createFoodSharePoints(em, clock);
  createEvents(em, clock, users);
  createPolls(em, clock, users);
  createMailboxes(em, clock, users);
}

function createResources(em: EntityManager, clock: DemoClock, users: DemoUsers): void {
  const { alice, bob } = users;
  const { ago } = clock;
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
}

function createFoodSharePoints(em: EntityManager, clock: DemoClock): void {
  const { ago } = clock;
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
}

function createEvents(em: EntityManager, clock: DemoClock, users: DemoUsers): void {
  const { alice, bob, carla, dana, kim } = users;
  const { ago, ahead } = clock;
  const event = (
    region: number,
    name: string,
    start: Date,
    hours: number,
    location: { name: string; online: boolean },
    invitations: [UserEntity, 'invited' | 'accepted' | 'maybe' | 'wont_join'][],
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
}

function createPolls(em: EntityManager, clock: DemoClock, users: DemoUsers): void {
  const { alice, bob, carla, dana } = users;
  const { ago, ahead } = clock;
  const poll = (region: number, name: string, startAt: Date, endAt: Date, voters: UserEntity[]) => {
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
}

function createMailboxes(em: EntityManager, clock: DemoClock, users: DemoUsers): void {
  const { alice, dana } = users;
  const { ago } = clock;
  const mailbox = (name: string, region: number | null, members: UserEntity[]) => {
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
}

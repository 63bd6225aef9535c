import { BananaEntity } from '../entities/banana.entity.ts';
import { ReportEntity } from '../entities/report.entity.ts';
import { reportConsequenceKey, reportStatusKey } from '../enums.ts';
import type { StoreEntity } from '../entities/store.entity.ts';
import type { UserEntity } from '../entities/user.entity.ts';
import type { EntityManager } from '../db/orm.ts';
import type { DemoClock } from './demo-clock.ts';
import { DemoRegionId } from './demo-ids.ts';
import type { DemoUsers } from './demo-people.ts';

/** Two reports about bob, one of them about his pickups at alice's store, and the bananas. */
export function createReportsAndBananas(
  em: EntityManager,
  clock: DemoClock,
  users: DemoUsers,
  store: StoreEntity,
): void {
  createReports(em, clock, users, store);
  createBananas(em, clock, users);
}

function createReports(
  em: EntityManager,
  clock: DemoClock,
  users: DemoUsers,
  store: StoreEntity,
): void {
  const { alice, bob, dana } = users;
  const { ago, ahead } = clock;
  em.create(ReportEntity, {
    reporter: alice,
    reported: bob,
    store,
    reason: 'Unzuverlässig bei Abholungen',
    message:
      'Bob hat sich zweimal für eine Abholung eingetragen und ist ohne Absage nicht erschienen. Die Filiale musste die Ware wegwerfen.',
    status: reportStatusKey('in_progress'),
    consequence: reportConsequenceKey('warning'),
    reportedAt: ago(20),
    reminderAt: ahead(10),
    reportedRegion: DemoRegionId.Beispieldorf,
  });
  em.create(ReportEntity, {
    reporter: dana,
    reported: bob,
    reason: 'Umgangston',
    message: 'Bob war beim letzten Treffen am Fairteiler unfreundlich zu einer neuen Foodsharerin.',
    status: reportStatusKey('to_do'),
    reportedAt: ago(3),
    reportedRegion: DemoRegionId.Beispieldorf,
  });
}

function createBananas(em: EntityManager, clock: DemoClock, users: DemoUsers): void {
  const { alice, bob, dana, kim } = users;
  const { ago } = clock;
  const banana = (sender: UserEntity, recipient: UserEntity, createdAt: Date, message: string) =>
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
}
